package zookeeper

import "kafkascope/core/sim"

// The asynchronous calls of ZooKeeper.java (release-3.5.9) that Kafka
// 2.8's ZooKeeperClient makes; each callback gets the reply's code (OK,
// a KeeperException code, CONNECTIONLOSS or SESSIONEXPIRED).

// Create is create(path, data, OPEN_ACL_UNSAFE, mode, cb): the created
// path (with its sequence suffix).
func (c *Client) Create(env *sim.Env, path string, data []byte, mode CreateMode, cb func(env *sim.Env, rc Code, created string)) {
	c.Submit(env, &Request{Type: OpCreate, Path: path, Data: cloneBytes(data), Mode: mode}, func(env *sim.Env, r *Reply) {
		if cb != nil {
			cb(env, r.Err, r.Path)
		}
	})
}

// Delete is delete(path, version, cb).
func (c *Client) Delete(env *sim.Env, path string, version int32, cb func(env *sim.Env, rc Code)) {
	c.Submit(env, &Request{Type: OpDelete, Path: path, Version: version}, func(env *sim.Env, r *Reply) {
		if cb != nil {
			cb(env, r.Err)
		}
	})
}

// SetData is setData(path, data, version, cb): the new stat.
func (c *Client) SetData(env *sim.Env, path string, data []byte, version int32, cb func(env *sim.Env, rc Code, st Stat)) {
	c.Submit(env, &Request{Type: OpSetData, Path: path, Data: cloneBytes(data), Version: version}, func(env *sim.Env, r *Reply) {
		if cb != nil {
			cb(env, r.Err, r.Stat)
		}
	})
}

// GetData is getData(path, watch, cb).
func (c *Client) GetData(env *sim.Env, path string, watch bool, cb func(env *sim.Env, rc Code, data []byte, st Stat)) {
	c.Submit(env, &Request{Type: OpGetData, Path: path, Watch: watch}, func(env *sim.Env, r *Reply) {
		if cb != nil {
			cb(env, r.Err, r.Data, r.Stat)
		}
	})
}

// Exists is exists(path, watch, cb): NONODE for a missing node (which a
// watch then waits to see created).
func (c *Client) Exists(env *sim.Env, path string, watch bool, cb func(env *sim.Env, rc Code, st Stat)) {
	c.Submit(env, &Request{Type: OpExists, Path: path, Watch: watch}, func(env *sim.Env, r *Reply) {
		if cb != nil {
			cb(env, r.Err, r.Stat)
		}
	})
}

// GetChildren is getChildren(path, watch, Children2Callback): the names
// in the server's order, and the parent's stat.
func (c *Client) GetChildren(env *sim.Env, path string, watch bool, cb func(env *sim.Env, rc Code, children []string, st Stat)) {
	c.Submit(env, &Request{Type: OpGetChildren2, Path: path, Watch: watch}, func(env *sim.Env, r *Reply) {
		if cb != nil {
			cb(env, r.Err, r.Children, r.Stat)
		}
	})
}

// Multi is multi(ops, cb): rc is the first failing step's code, as
// ZooKeeper.multiInternal reports it, or the connection's error.
func (c *Client) Multi(env *sim.Env, ops []Op, cb func(env *sim.Env, rc Code, results []OpResult)) {
	c.Submit(env, &Request{Type: OpMulti, Ops: ops}, func(env *sim.Env, r *Reply) {
		rc := r.Err
		for _, o := range r.Multi {
			if rc == OK && o.Type == OpError && o.Err != OK {
				rc = o.Err
			}
		}
		if cb != nil {
			cb(env, rc, r.Multi)
		}
	})
}
