package client

import (
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// AdminConfig holds the admin client settings the simulator implements.
type AdminConfig struct {
	ClientID          string
	DefaultAPITimeout time.Duration // default.api.timeout.ms
	RequestTimeout    time.Duration // request.timeout.ms
	RetryBackoff      time.Duration // retry.backoff.ms
}

// DefaultAdminConfig has Kafka's admin client defaults.
func DefaultAdminConfig() AdminConfig {
	return AdminConfig{ClientID: "adminclient-1", DefaultAPITimeout: 60 * time.Second, RequestTimeout: 30 * time.Second, RetryBackoff: 100 * time.Millisecond}
}

// Admin sends admin calls to the cluster's brokers (which forward what the
// controller decides), retrying on broken connections until the call's
// deadline, as KafkaAdminClient does.
type Admin struct {
	cfg       AdminConfig
	net       *rpc.Client
	bootstrap []sim.Addr
	rr        int
}

// NewAdmin makes an admin client sending from self.
func NewAdmin(self sim.Addr, bootstrap []sim.Addr, cfg AdminConfig) *Admin {
	return &Admin{cfg: cfg, net: rpc.NewClient(self, cfg.ClientID), bootstrap: bootstrap}
}

// Handle routes a message to the admin client's network client.
func (a *Admin) Handle(env *sim.Env, e *sim.Envelope) bool { return a.net.Handle(env, e) }

// Call runs one admin call named name (as Kafka names calls: createTopics,
// listTopics, ...). build makes a fresh request for each attempt. cb gets the
// response, or a TimeoutException once default.api.timeout.ms has passed.
func (a *Admin) Call(env *sim.Env, name string, build func() protocol.Request, cb func(env *sim.Env, resp protocol.Response, err *Error)) {
	a.call(env, name, "", a.cfg.DefaultAPITimeout, build, cb)
}

// CallWithTimeout is Call with the call's own timeout (an options object's
// timeoutMs) instead of default.api.timeout.ms; node "" means any broker.
func (a *Admin) CallWithTimeout(env *sim.Env, name string, node sim.Addr, timeout time.Duration, build func() protocol.Request, cb func(env *sim.Env, resp protocol.Response, err *Error)) {
	a.call(env, name, node, timeout, build, cb)
}

// CallNode is Call addressed to one broker (e.g. a partition's leader).
func (a *Admin) CallNode(env *sim.Env, name string, node sim.Addr, build func() protocol.Request, cb func(env *sim.Env, resp protocol.Response, err *Error)) {
	a.call(env, name, node, a.cfg.DefaultAPITimeout, build, cb)
}

func (a *Admin) call(env *sim.Env, name string, node sim.Addr, timeout time.Duration, build func() protocol.Request, cb func(env *sim.Env, resp protocol.Response, err *Error)) {
	deadline := env.Now().Add(timeout)
	tries := 0
	answered := false
	var attempt func(env *sim.Env)
	attempt = func(env *sim.Env) {
		if env.Now() >= deadline {
			msg := "Timed out waiting for a node assignment. Call: " + name
			if answered {
				msg = "Timed out waiting to send the call. Call: " + name
			}
			cb(env, nil, &Error{Class: classTimeout, Message: msg})
			return
		}
		to := node
		if to == "" {
			to = a.bootstrap[a.rr%len(a.bootstrap)]
			a.rr++
		}
		tries++
		timeout := min(a.cfg.RequestTimeout, deadline.Sub(env.Now()))
		a.net.Send(env, to, build(), timeout, func(env *sim.Env, resp protocol.Response, err error) {
			if err == nil {
				cb(env, resp, nil)
				return
			}
			if err == rpc.ErrTimeout {
				answered = true
			}
			env.After(a.cfg.RetryBackoff, "admin-retry "+name, attempt)
		})
	}
	attempt(env)
}
