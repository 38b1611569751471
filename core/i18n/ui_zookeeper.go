package i18n

// The ZooKeeper era's strings (--version 2.8): the ZooKeeper tab
// (ui/zoo-keeper.vugu) and the ensemble and controller on the diagram.
// init adds them to uiText, as ui_sim.go does.
var uiTextZooKeeper = []uiEntry{
	{"zookeeper", [2]string{"ZooKeeper", "ZooKeeper"}},
	{"tab.zookeeper.alert", [2]string{"No ZooKeeper server is serving: metadata is frozen", "요청을 받는 ZooKeeper 서버가 없어 메타데이터 변경이 멈췄습니다"}},
	{"zk.tip", [2]string{
		"Kafka 2.8 keeps its metadata in ZooKeeper: each broker registers an ephemeral znode under /brokers/ids, held by its session; the broker that creates /controller first is the controller, which writes topics and partition states here and sends them to brokers (LeaderAndIsr, UpdateMetadata). Watches are one-shot: a change fires them once, and the client sets them again. The tree shown is the serving server's (the leader's in an ensemble). Simplified: no snapshots or ACL details, and a restarted standalone server starts empty.",
		"Kafka 2.8은 메타데이터를 ZooKeeper에 둡니다. 브로커는 저마다 /brokers/ids 아래에 자기 세션이 붙잡고 있는 임시(ephemeral) znode를 등록하고, /controller를 먼저 만든 브로커가 컨트롤러가 되어 토픽과 파티션 상태를 여기에 쓰고 브로커들에게 보냅니다(LeaderAndIsr, UpdateMetadata). 워치는 한 번만 울립니다. 변경이 생기면 한 번 알리고 사라지므로 클라이언트가 다시 걸어야 합니다. 보이는 트리는 요청을 받는 서버(앙상블에서는 리더)의 것입니다. 단순화한 점: 스냅숏과 ACL 세부 사항은 없고, 다시 시작한 단독 서버는 빈 트리로 시작합니다."}},
	{"zk.controller", [2]string{"controller kafka-%d · epoch %d", "컨트롤러 kafka-%d · 에포크 %d"}},
	{"zk.nocontroller", [2]string{"no /controller", "/controller 없음"}},
	{"zk.down", [2]string{"No ZooKeeper server is serving: metadata is frozen.", "요청을 받는 ZooKeeper 서버가 없어 메타데이터 변경이 멈췄습니다."}},
	{"zk.down.detail", [2]string{"Brokers keep serving what they lead, but no controller can be elected and no topic, leader or ISR can change until a server (a majority of an ensemble) is back.", "브로커는 이끌던 파티션을 계속 서비스하지만, 서버(앙상블이라면 과반수)가 돌아올 때까지 컨트롤러를 뽑을 수 없고 토픽, 리더, ISR도 바뀌지 않습니다."}},
	{"zk.standalone", [2]string{"standalone", "단독 실행"}},
	{"zk.server.tip", [2]string{"%s: %s · last zxid %s · %d sessions", "%s: %s · 마지막 zxid %s · 세션 %d개"}},
	{"zk.nometalog", [2]string{"No metadata log or KRaft quorum in this release: the controller keeps the cluster's metadata in these znodes.", "이 릴리스에는 메타데이터 로그도 KRaft 쿼럼도 없습니다. 컨트롤러가 클러스터 메타데이터를 이 znode들에 둡니다."}},
	{"zk.sub", [2]string{"tree of %s · zxid %s · %d znodes", "%s의 트리 · zxid %s · znode %d개"}},
	{"zk.notree", [2]string{"no server has a tree to read", "트리를 읽을 서버가 없습니다"}},
	{"zk.tree", [2]string{"znodes", "znode 목록"}},
	{"zk.fold", [2]string{"Fold or unfold the children", "자식 접기 또는 펼치기"}},
	{"zk.fired", [2]string{"Watches fired", "울린 워치"}},
	{"zk.fired.none", [2]string{"No watch has fired yet.", "아직 울린 워치가 없습니다."}},
	{"zk.watch.data", [2]string{"data", "데이터"}},
	{"zk.watch.child", [2]string{"children", "자식"}},
	{"zk.watched", [2]string{"watched by", "워치:"}},
	{"zk.nowatch", [2]string{"No watch is set on this znode.", "이 znode에는 걸린 워치가 없습니다."}},
	{"zk.session", [2]string{"ZooKeeper session 0x%x", "ZooKeeper 세션 0x%x"}},
	{"zk.session.short", [2]string{"ZK session up", "ZK 세션 연결"}},
	{"zk.session.none", [2]string{"no ZooKeeper session", "ZooKeeper 세션 없음"}},
	{"zk.session.down", [2]string{"not running: no session", "실행 중이 아님: 세션 없음"}},
	{"zk.controller.summary", [2]string{"controller on broker %d · epoch %d", "컨트롤러: 브로커 %d · 에포크 %d"}},
	{"zk.controller.info", [2]string{"epoch %d", "에포크 %d"}},
	{"zk.frozen", [2]string{"no ZooKeeper server serving: metadata is frozen", "요청을 받는 ZooKeeper 서버 없음: 메타데이터 변경이 멈췄습니다"}},
}

func init() {
	for _, e := range uiTextZooKeeper {
		if _, dup := uiText[e.key]; dup {
			panic("i18n: UI string " + e.key + " defined twice")
		}
		uiText[e.key] = e.text
	}
}
