package client

import "kafkascope/core/sim"

// Handler is anything that consumes messages addressed to a client process
// (a producer's, consumer's or admin's network client).
type Handler interface {
	Handle(env *sim.Env, e *sim.Envelope) bool
}

// Process is a client program: its start function, and the clients whose
// network traffic it routes. Tools and tests build their programs from it.
type Process struct {
	OnStart  func(env *sim.Env)
	Handlers []Handler
	// Done, if set, ends the process once it reports true (the program's
	// main returned).
	Done func() bool
}

// Exited implements sim.Exiter.
func (p *Process) Exited() bool { return p.Done != nil && p.Done() }

// Start implements sim.Process.
func (p *Process) Start(env *sim.Env) {
	if p.OnStart != nil {
		p.OnStart(env)
	}
}

// Receive implements sim.Process.
func (p *Process) Receive(env *sim.Env, e *sim.Envelope) {
	for _, h := range p.Handlers {
		if h.Handle(env, e) {
			return
		}
	}
}
