package cluster

import (
	"fmt"
	"slices"
	"strings"
)

// Racks: each broker's broker.rack (Config.Racks) goes into its
// registration, the controller places replicas over the racks
// (placement.Striped), and a whole rack can be cut off from the others:
// an availability zone lost.

// RackNames are the racks brokers are in, sorted (none without racks).
func (c *Cluster) RackNames() []string {
	var out []string
	for _, r := range c.cfg.Racks {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// rackMembers are the nodes in rack and the others, or an error naming the
// racks there are.
func (c *Cluster) rackMembers(rack string) (in, out []int32, err error) {
	for _, id := range c.NodeIDs() {
		if c.Rack(id) == rack {
			in = append(in, id)
		} else {
			out = append(out, id)
		}
	}
	if len(in) == 0 {
		if len(c.cfg.Racks) == 0 {
			return nil, nil, fmt.Errorf("no broker has a rack (cluster create --racks a,b,c gives them one)")
		}
		return nil, nil, fmt.Errorf("no broker is in rack %q (the racks are %s)", rack, strings.Join(c.RackNames(), ", "))
	}
	return in, out, nil
}

// CutRack cuts every link between a node in rack and a node outside it,
// both ways: the rack's brokers (and a controller among them) go on
// running and talking to each other, and reach no one else.
func (c *Cluster) CutRack(rack string) error {
	return c.acrossRack(rack, func(a, b int32) error { return c.Cut(a, b, false) })
}

// HealRack undoes CutRack (other cuts stay).
func (c *Cluster) HealRack(rack string) error {
	return c.acrossRack(rack, func(a, b int32) error { return c.Heal(a, b, false) })
}

// acrossRack calls fn for every pair of a node in rack and one outside.
func (c *Cluster) acrossRack(rack string, fn func(a, b int32) error) error {
	in, out, err := c.rackMembers(rack)
	if err != nil {
		return err
	}
	for _, a := range in {
		for _, b := range out {
			if err := fn(a, b); err != nil {
				return err
			}
		}
	}
	return nil
}
