package console

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// The KafkaZkClient calls the 2.8 tools' --zookeeper paths make
// (core/src/main/scala/kafka/zk/KafkaZkClient.scala, tag 2.8.0). Each
// waits for its answers (retryRequestsUntilConnected: a lost connection
// sends them again) and throws a KeeperException for a code it does not
// expect, which main's try prints.

// call sends reqs (paths without the connect string's chroot) together
// and continues with their answers.
func (p *zkTool) call(env *sim.Env, reqs []kafkazk.Req, k func(env *sim.Env, resps []kafkazk.Resp)) {
	if p.zk == nil {
		return // no server answers: the connection timeout ends the tool
	}
	sent := slices.Clone(reqs)
	for i := range sent {
		sent[i].Path = chrootPath(p.cfg.chroot, sent[i].Path)
	}
	p.zk.Do(env, sent, func(env *sim.Env, resps []kafkazk.Resp) {
		if p.done {
			return
		}
		p.env, p.connected = env, true
		k(env, resps)
	})
}

func (p *zkTool) one(env *sim.Env, req kafkazk.Req, k func(env *sim.Env, r kafkazk.Resp)) {
	p.call(env, []kafkazk.Req{req}, func(env *sim.Env, resps []kafkazk.Resp) { k(env, resps[0]) })
}

// chrootPath is ClientCnxn's prependChroot.
func chrootPath(chroot, path string) string {
	switch {
	case chroot == "":
		return path
	case path == "/":
		return chroot
	}
	return chroot + path
}

// keeperFail is a KeeperException (KeeperException.create(code, path))
// reaching main's try.
func (p *zkTool) keeperFail(code zookeeper.Code, path string, causes ...string) {
	p.fail("org.apache.zookeeper.KeeperException$"+keeperClass[code], (&zookeeper.Error{Code: code, Path: path}).Error(), causes...)
}

// getChildren is KafkaZkClient.getChildren: none for a missing parent.
func (p *zkTool) getChildren(env *sim.Env, path string, k func(env *sim.Env, children []string)) {
	p.one(env, kafkazk.Req{Type: zookeeper.OpGetChildren2, Path: path}, func(env *sim.Env, r kafkazk.Resp) {
		switch r.Rc {
		case zookeeper.OK:
			k(env, r.Children)
		case zookeeper.NoNode:
			k(env, nil)
		default:
			p.keeperFail(r.Rc, path)
		}
	})
}

// getData reads a znode: ok is false when it does not exist.
func (p *zkTool) getData(env *sim.Env, path string, k func(env *sim.Env, data []byte, ok bool)) {
	p.one(env, kafkazk.Req{Type: zookeeper.OpGetData, Path: path}, func(env *sim.Env, r kafkazk.Resp) {
		switch r.Rc {
		case zookeeper.OK:
			k(env, r.Data, true)
		case zookeeper.NoNode:
			k(env, nil, false)
		default:
			p.keeperFail(r.Rc, path)
		}
	})
}

// pathExists is KafkaZkClient.pathExists.
func (p *zkTool) pathExists(env *sim.Env, path string, k func(env *sim.Env, exists bool)) {
	p.one(env, kafkazk.Req{Type: zookeeper.OpExists, Path: path}, func(env *sim.Env, r kafkazk.Resp) {
		switch r.Rc {
		case zookeeper.OK:
			k(env, true)
		case zookeeper.NoNode:
			k(env, false)
		default:
			p.keeperFail(r.Rc, path)
		}
	})
}

// createRecursive is KafkaZkClient.createRecursive with throwIfPathExists
// (every caller here): create path; when its parent is missing, create
// the parents (no data) and try again. k gets OK or NODEEXISTS (the
// NodeExistsException the callers catch); other codes are thrown.
func (p *zkTool) createRecursive(env *sim.Env, path string, data []byte, k func(env *sim.Env, rc zookeeper.Code)) {
	create := kafkazk.Req{Type: zookeeper.OpCreate, Path: path, Data: data, Mode: zookeeper.Persistent}
	p.one(env, create, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc != zookeeper.NoNode {
			p.createdOrThrow(env, r.Rc, path, k)
			return
		}
		p.createParents(env, parentPath(path), func(env *sim.Env) {
			p.one(env, create, func(env *sim.Env, r kafkazk.Resp) { p.createdOrThrow(env, r.Rc, path, k) })
		})
	})
}

func (p *zkTool) createdOrThrow(env *sim.Env, rc zookeeper.Code, path string, k func(env *sim.Env, rc zookeeper.Code)) {
	if rc != zookeeper.OK && rc != zookeeper.NodeExists {
		p.keeperFail(rc, path)
		return
	}
	k(env, rc)
}

// createParents is createRecursive0: a parent that exists already is
// fine.
func (p *zkTool) createParents(env *sim.Env, path string, k func(env *sim.Env)) {
	create := kafkazk.Req{Type: zookeeper.OpCreate, Path: path, Mode: zookeeper.Persistent}
	ok := func(env *sim.Env, rc zookeeper.Code) {
		if rc != zookeeper.OK && rc != zookeeper.NodeExists {
			p.keeperFail(rc, path)
			return
		}
		k(env)
	}
	p.one(env, create, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc != zookeeper.NoNode {
			ok(env, r.Rc)
			return
		}
		p.createParents(env, parentPath(path), func(env *sim.Env) {
			p.one(env, create, func(env *sim.Env, r kafkazk.Resp) { ok(env, r.Rc) })
		})
	})
}

func parentPath(path string) string { return path[:strings.LastIndexByte(path, '/')] }

// getTopics is ZookeeperTopicService.getTopics: every topic under
// /brokers/topics in name order (Scala's String ordering, compareTo),
// then --topic (TopicFilter's IncludeList) and --exclude-internal
// (TopicCommand.doGetTopics).
func (p *zkTopicsProc) getTopics(env *sim.Env, k func(env *sim.Env, topics []string)) {
	p.getChildren(env, kafkazk.TopicsPath, func(env *sim.Env, all []string) {
		all = slices.Clone(all)
		slices.SortFunc(all, jdk.Compare)
		var re *regexp.Regexp
		if p.tc.p.Has("topic") {
			var err error
			if re, err = topicFilter(p.tc.p.Value("topic")); err != nil {
				p.tc.fail("java.lang.RuntimeException", err.Error())
				return
			}
		}
		exclude := p.tc.p.Has("exclude-internal")
		var out []string
		for _, t := range all {
			if (re == nil || re.MatchString(t)) && !(exclude && zkTopicsInternal(t)) {
				out = append(out, t)
			}
		}
		k(env, out)
	})
}

// ensureTopicExists is TopicCommand.ensureTopicExists: a --topic that
// matches nothing fails unless --if-exists.
func (p *zkTopicsProc) ensureTopicExists(topics []string) bool {
	if p.tc.p.Has("topic") && !p.tc.p.Has("if-exists") && len(topics) == 0 {
		p.tc.topicMissing()
		return false
	}
	return true
}

// liveBrokers is getAllBrokersInCluster: the ids under /brokers/ids in
// order (getSortedBrokerList), each registration read (all together) and
// those still there kept.
func (p *zkTool) liveBrokers(env *sim.Env, k func(env *sim.Env, brokers []kafkazk.BrokerInfo)) {
	p.getChildren(env, kafkazk.BrokerIdsPath, func(env *sim.Env, children []string) {
		var ids []int32
		for _, c := range children {
			n, ok := jdk.ParseInt(c, 32)
			if !ok {
				p.fail("java.lang.NumberFormatException", `For input string: "`+c+`"`)
				return
			}
			ids = append(ids, int32(n))
		}
		slices.Sort(ids)
		reqs := make([]kafkazk.Req, len(ids))
		for i, id := range ids {
			reqs[i] = kafkazk.Req{Type: zookeeper.OpGetData, Path: kafkazk.BrokerIDPath(id)}
		}
		p.call(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
			var out []kafkazk.BrokerInfo
			for i, r := range resps {
				switch r.Rc {
				case zookeeper.OK:
					b, err := kafkazk.DecodeBrokerInfo(ids[i], r.Data)
					if err != nil {
						// BrokerIdZNode.decode (ZkData.scala:271).
						p.fail("org.apache.kafka.common.KafkaException", fmt.Sprintf("Failed to parse ZooKeeper registration for broker %d: %s", ids[i], r.Data))
						return
					}
					out = append(out, b)
				case zookeeper.NoNode:
				default:
					p.keeperFail(r.Rc, reqs[i].Path)
					return
				}
			}
			k(env, out)
		})
	})
}

// changeEntityConfig is AdminZkClient.changeEntityConfig: set (or create)
// /config/<type>/<name>, then the notification the brokers watch for
// (makeSurePersistentPathExists, a sequential create).
func (p *zkTool) changeEntityConfig(env *sim.Env, entityType, name string, props []kafkazk.ConfigEntry, k func(env *sim.Env)) {
	path := kafkazk.ConfigEntityPath(entityType, name)
	cfg := kafkazk.EncodeEntityConfigEntries(props)
	notify := func(env *sim.Env) {
		p.createRecursive(env, kafkazk.ConfigChangesPath, nil, func(env *sim.Env, _ zookeeper.Code) {
			p.one(env, kafkazk.Req{Type: zookeeper.OpCreate, Path: kafkazk.ConfigChangeCreatePath(), Mode: zookeeper.PersistentSequential,
				Data: kafkazk.EncodeConfigChangeNotification(entityType + "/" + name)}, func(env *sim.Env, r kafkazk.Resp) {
				if r.Rc != zookeeper.OK {
					p.keeperFail(r.Rc, kafkazk.ConfigChangeCreatePath())
					return
				}
				k(env)
			})
		})
	}
	p.one(env, kafkazk.Req{Type: zookeeper.OpSetData, Path: path, Data: cfg, Version: -1}, func(env *sim.Env, r kafkazk.Resp) {
		switch r.Rc {
		case zookeeper.OK:
			notify(env)
		case zookeeper.NoNode:
			p.createRecursive(env, path, cfg, func(env *sim.Env, _ zookeeper.Code) { notify(env) })
		default:
			p.keeperFail(r.Rc, path)
		}
	})
}
