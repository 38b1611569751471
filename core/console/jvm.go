package console

import (
	"time"

	"kafkascope/core/sim"
)

// jvmStart is the virtual time a Kafka tool spends starting its JVM before
// its first request (kafka-run-class.sh loading Kafka's jars takes about a
// second). Commands therefore do not run in zero time, and a command sees
// what the cluster did during the previous one's aftermath, as a user at a
// real terminal does: for example a broker that follows the metadata
// quorum learns a new topic's records within one metadata fetch wait
// (500 ms) of their commit, before a describe typed next reaches it.
const jvmStart = time.Second

// jvmProcess delays a tool's program by jvmStart.
type jvmProcess struct {
	p       sim.Process
	started bool
}

func (j *jvmProcess) Start(env *sim.Env) {
	env.After(jvmStart, "jvm-start", func(env *sim.Env) {
		j.started = true
		j.p.Start(env)
	})
}

func (j *jvmProcess) Receive(env *sim.Env, e *sim.Envelope) {
	if j.started {
		j.p.Receive(env, e)
	}
}

// Exited implements sim.Exiter for programs that end themselves.
func (j *jvmProcess) Exited() bool {
	ex, ok := j.p.(sim.Exiter)
	return j.started && ok && ex.Exited()
}

// Unwrap is the tool's program (views read its clients' state through it).
func (j *jvmProcess) Unwrap() sim.Process { return j.p }
