package simulate

import "fmt"

// consumerFaultOneIn: at each step of the safety phase, when the workload
// has consumer groups, a consumer restart happens with probability
// 1/consumerFaultOneIn, on top of the fault the main stream draws.
const consumerFaultOneIn = 4

// consumerFault (drawn from "simulate/faults/consumers") restarts a
// consumer of a group, one of two ways:
//   - a crash: its process dies at once (no last commit, no LeaveGroup),
//     and a new process with the same client.id starts, joining as a new
//     member (no group.instance.id: a new member id). The coordinator keeps
//     the dead member until session.timeout.ms (45 s) passes without a
//     heartbeat, so the rebalance the new member starts waits for that
//     expiry (or the dead member's rebalance timeout).
//   - a graceful close: Close commits the consumed position and sends
//     LeaveGroup; once it has finished, a new process joins (rejoinClosed,
//     at the next step).
//
// Either way the new member starts from the group's committed offsets, so
// the committed offsets must not go back (checkCommits), and after the
// faults the group must settle with exactly its live members (groupsSettled).
func (run *Run) consumerFault() error {
	if len(run.Plan.Groups) == 0 {
		return nil
	}
	r := run.stream(&run.x.consumers, "simulate/faults/consumers")
	if err := run.rejoinClosed(); err != nil {
		return err
	}
	if r.Intn(consumerFaultOneIn) != 0 {
		return nil
	}
	var live []*member
	for _, m := range run.members {
		if m.live() {
			live = append(live, m)
		}
	}
	if len(live) == 0 {
		return nil
	}
	m := pick(r, live)
	static := run.groupPlan(m.group).Static
	if r.Intn(3) == 0 {
		if static {
			run.note("consumer %s (%s) closes: a last commit; a static member stays in the group and takes its place back when it starts again", m.name, m.group)
		} else {
			run.note("consumer %s (%s) closes: a last commit, then LeaveGroup; it rejoins as a new member when done", m.name, m.group)
		}
		return run.closeMember(m)
	}
	if static {
		run.note("consumer %s (%s) crashes; a new process starts with the same group.instance.id to take its place", m.name, m.group)
	} else {
		run.note("consumer %s (%s) crashes; a new process starts and joins as a new member", m.name, m.group)
	}
	if err := run.C.World.Kill(m.host, false); err != nil {
		return fmt.Errorf("crashing %s: %w", m.host, err)
	}
	m.crashed = true
	_, err := run.startMember(m.group, m.name)
	return err
}

// rejoinClosed replaces every member whose graceful close (by a fault) has
// finished with a new process of the same client.id.
func (run *Run) rejoinClosed() error {
	for _, m := range run.members {
		if !m.closed || m.exited {
			continue
		}
		run.C.StopClient(m.host)
		m.exited = true
		if run.groupPlan(m.group).Static {
			run.note("consumer %s (%s) starts again with its group.instance.id", m.name, m.group)
		} else {
			run.note("consumer %s (%s) starts again and joins as a new member", m.name, m.group)
		}
		if _, err := run.startMember(m.group, m.name); err != nil {
			return err
		}
	}
	return nil
}

// groupPlan is the plan of group id (the zero plan if there is none).
func (run *Run) groupPlan(id string) GroupPlan {
	for _, g := range run.Plan.Groups {
		if g.ID == id {
			return g
		}
	}
	return GroupPlan{}
}
