package feed

// CatClient: a client stuck on an obstacle the cluster knows, and its
// recovery.
const CatClient = "client"

// Why a client keeps failing (core/client/stuck.go): the client notes
// "consumer.stuck" or "producer.stuck" once per episode and cause, with
// the cause's kind (protocol.Cause*) in the field "cause"; refine picks the
// sentence for that kind. Kafka's clients print at most the error code;
// these say what the answering broker knows. "Reaches no active
// controller" is the broker's own view: its raft client knows no quorum
// leader, or no controller answered its heartbeats.
func init() {
	for _, e := range []entry{
		// The group coordinator (FindCoordinator, and the coordinator it names).
		{"consumer.stuck.offsets-topic.no-controller", template{CatClient,
			"Consumer {client} (group {group}) finds no group coordinator: __consumer_offsets does not exist yet, and broker {broker} cannot create it because it reaches no active controller (the KRaft quorum has no leader, or none answers).",
			"컨슈머 {client}(그룹 {group})가 그룹 코디네이터를 찾지 못합니다: __consumer_offsets가 아직 없는데, 브로커 {broker}가 닿을 수 있는 활성 컨트롤러가 없어(KRaft 쿼럼에 리더가 없거나 응답하지 않음) 이 토픽을 만들 수 없습니다."}},
		{"consumer.stuck.offsets-topic.replication", template{CatClient,
			"Consumer {client} (group {group}) finds no group coordinator: __consumer_offsets cannot be created, because offsets.topic.replication.factor is {rf} but only {registered} broker(s) are registered.",
			"컨슈머 {client}(그룹 {group})가 그룹 코디네이터를 찾지 못합니다: offsets.topic.replication.factor는 {rf}인데 등록된 브로커가 {registered}개뿐이라 __consumer_offsets를 만들 수 없습니다."}},
		{"consumer.stuck.offsets-topic.create-failed", template{CatClient,
			"Consumer {client} (group {group}) finds no group coordinator: __consumer_offsets does not exist, and broker {broker}'s request to create it failed with {error}.",
			"컨슈머 {client}(그룹 {group})가 그룹 코디네이터를 찾지 못합니다: __consumer_offsets가 없고, 이를 만들려는 브로커 {broker}의 요청은 {error}로 실패했습니다."}},
		{"consumer.stuck.coordinator.no-leader", template{CatClient,
			"Consumer {client} (group {group}) finds no group coordinator: the group's partition {tp} has no leader, because no replica of its ISR [{isr}] is online.",
			"컨슈머 {client}(그룹 {group})가 그룹 코디네이터를 찾지 못합니다: 그룹을 맡은 파티션 {tp}의 ISR [{isr}]에 살아 있는 복제본이 없어 리더가 없습니다."}},
		{"consumer.stuck.coordinator.no-leader-elr", template{CatClient,
			"Consumer {client} (group {group}) finds no group coordinator: the group's partition {tp} has no leader, because its ISR is empty and none of its eligible leader replicas [{elr}] is online.",
			"컨슈머 {client}(그룹 {group})가 그룹 코디네이터를 찾지 못합니다: 그룹을 맡은 파티션 {tp}의 ISR이 비어 있고 리더 후보 복제본 [{elr}] 중 살아 있는 것이 없어 리더가 없습니다."}},
		{"consumer.stuck.coordinator.unreachable", template{CatClient,
			"Consumer {client} (group {group}) keeps losing its coordinator, broker {coordinator} ({failure}), and no controller can move the group to a live broker: broker {broker}, which named it, reaches no active controller.",
			"컨슈머 {client}(그룹 {group})가 코디네이터인 브로커 {coordinator}를 계속 잃는데({failure}), 그룹을 살아 있는 브로커로 옮길 컨트롤러가 없습니다: 이 코디네이터를 알려 준 브로커 {broker}가 닿을 수 있는 활성 컨트롤러가 없습니다."}},

		// Topics and partitions, for consumers.
		{"consumer.stuck.topic.autocreate-disabled", template{CatClient,
			"Consumer {client} waits for topic {topic}: it does not exist, and broker {broker} does not create topics a client asks for (auto.create.topics.enable=false).",
			"컨슈머 {client}가 토픽 {topic}을(를) 기다립니다: 토픽이 없고, 브로커 {broker}는 클라이언트가 찾는 토픽을 만들지 않습니다(auto.create.topics.enable=false)."}},
		{"consumer.stuck.topic.no-controller", template{CatClient,
			"Consumer {client} waits for topic {topic}: it does not exist, and broker {broker} cannot create it because it reaches no active controller (the KRaft quorum has no leader, or none answers).",
			"컨슈머 {client}가 토픽 {topic}을(를) 기다립니다: 토픽이 없는데, 브로커 {broker}가 닿을 수 있는 활성 컨트롤러가 없어(KRaft 쿼럼에 리더가 없거나 응답하지 않음) 만들 수 없습니다."}},
		{"consumer.stuck.topic.replication", template{CatClient,
			"Consumer {client} waits for topic {topic}: it cannot be created, because default.replication.factor is {rf} but only {registered} broker(s) are registered.",
			"컨슈머 {client}가 토픽 {topic}을(를) 기다립니다: default.replication.factor는 {rf}인데 등록된 브로커가 {registered}개뿐이라 토픽을 만들 수 없습니다."}},
		{"consumer.stuck.topic.create-failed", template{CatClient,
			"Consumer {client} waits for topic {topic}: it does not exist, and broker {broker}'s request to create it failed with {error}.",
			"컨슈머 {client}가 토픽 {topic}을(를) 기다립니다: 토픽이 없고, 이를 만들려는 브로커 {broker}의 요청은 {error}로 실패했습니다."}},
		{"consumer.stuck.partition.no-leader", template{CatClient,
			"Consumer {client} cannot read {tp}: the partition has no leader, because no replica of its ISR [{isr}] is online.",
			"컨슈머 {client}가 {tp}에서 읽지 못합니다: ISR [{isr}]에 살아 있는 복제본이 없어 파티션에 리더가 없습니다."}},
		{"consumer.stuck.partition.no-leader-elr", template{CatClient,
			"Consumer {client} cannot read {tp}: the partition has no leader, because its ISR is empty and none of its eligible leader replicas [{elr}] is online.",
			"컨슈머 {client}가 {tp}에서 읽지 못합니다: ISR이 비어 있고 리더 후보 복제본 [{elr}] 중 살아 있는 것이 없어 파티션에 리더가 없습니다."}},
		{"consumer.stuck.leader.unreachable", template{CatClient,
			"Consumer {client} cannot read {tp}: its leader, broker {leader}, does not answer ({failure}), and no controller can elect another: broker {broker} reaches no active controller.",
			"컨슈머 {client}가 {tp}에서 읽지 못합니다: 리더인 브로커 {leader}가 응답하지 않는데({failure}), 새 리더를 뽑을 컨트롤러가 없습니다: 브로커 {broker}가 닿을 수 있는 활성 컨트롤러가 없습니다."}},

		// Producers.
		{"producer.stuck.topic.autocreate-disabled", template{CatClient,
			"Producer {client} cannot send to topic {topic}: it does not exist, and broker {broker} does not create topics a client asks for (auto.create.topics.enable=false), so send() waits up to max.block.ms.",
			"프로듀서 {client}가 토픽 {topic}에 보내지 못합니다: 토픽이 없고 브로커 {broker}는 클라이언트가 찾는 토픽을 만들지 않으므로(auto.create.topics.enable=false) send()가 max.block.ms까지 기다립니다."}},
		{"producer.stuck.topic.no-controller", template{CatClient,
			"Producer {client} cannot send to topic {topic}: it does not exist, and broker {broker} cannot create it because it reaches no active controller (the KRaft quorum has no leader, or none answers).",
			"프로듀서 {client}가 토픽 {topic}에 보내지 못합니다: 토픽이 없는데, 브로커 {broker}가 닿을 수 있는 활성 컨트롤러가 없어(KRaft 쿼럼에 리더가 없거나 응답하지 않음) 만들 수 없습니다."}},
		{"producer.stuck.topic.replication", template{CatClient,
			"Producer {client} cannot send to topic {topic}: it cannot be created, because default.replication.factor is {rf} but only {registered} broker(s) are registered.",
			"프로듀서 {client}가 토픽 {topic}에 보내지 못합니다: default.replication.factor는 {rf}인데 등록된 브로커가 {registered}개뿐이라 토픽을 만들 수 없습니다."}},
		{"producer.stuck.topic.create-failed", template{CatClient,
			"Producer {client} cannot send to topic {topic}: it does not exist, and broker {broker}'s request to create it failed with {error}.",
			"프로듀서 {client}가 토픽 {topic}에 보내지 못합니다: 토픽이 없고, 이를 만들려는 브로커 {broker}의 요청은 {error}로 실패했습니다."}},
		{"producer.stuck.partition.no-leader", template{CatClient,
			"Producer {client} holds its records for {tp}: the partition has no leader, because no replica of its ISR [{isr}] is online, and they fail once delivery.timeout.ms has passed.",
			"프로듀서 {client}가 {tp}로 갈 레코드를 붙잡고 있습니다: ISR [{isr}]에 살아 있는 복제본이 없어 파티션에 리더가 없고, delivery.timeout.ms가 지나면 레코드는 실패합니다."}},
		{"producer.stuck.partition.no-leader-elr", template{CatClient,
			"Producer {client} holds its records for {tp}: the partition has no leader, because its ISR is empty and none of its eligible leader replicas [{elr}] is online, and they fail once delivery.timeout.ms has passed.",
			"프로듀서 {client}가 {tp}로 갈 레코드를 붙잡고 있습니다: ISR이 비어 있고 리더 후보 복제본 [{elr}] 중 살아 있는 것이 없어 파티션에 리더가 없고, delivery.timeout.ms가 지나면 레코드는 실패합니다."}},
		{"producer.stuck.leader.unreachable", template{CatClient,
			"Producer {client} cannot write to {tp}: its leader, broker {leader}, does not answer ({failure}), and no controller can elect another: broker {broker} reaches no active controller.",
			"프로듀서 {client}가 {tp}에 쓰지 못합니다: 리더인 브로커 {leader}가 응답하지 않는데({failure}), 새 리더를 뽑을 컨트롤러가 없습니다: 브로커 {broker}가 닿을 수 있는 활성 컨트롤러가 없습니다."}},
		{"producer.stuck.produce.not-enough-replicas", template{CatClient,
			"Producer {client}'s acks=all writes to {tp} fail with {error}: the ISR [{isr}] of leader {broker} is smaller than min.insync.replicas={min}.",
			"프로듀서 {client}의 {tp} acks=all 쓰기가 {error}로 실패합니다: 리더 {broker}의 ISR [{isr}] 크기가 min.insync.replicas={min}보다 작습니다."}},
		{"producer.stuck.producer-id.no-controller", template{CatClient,
			"Producer {client} cannot start sending: as an idempotent producer (enable.idempotence) it needs a producer id, and broker {broker} has none to give because it reaches no active controller to allocate a block of them.",
			"프로듀서 {client}가 보내기를 시작하지 못합니다: 멱등성 프로듀서(enable.idempotence)라 프로듀서 ID가 필요한데, 브로커 {broker}가 ID 블록을 나눠 줄 활성 컨트롤러에 닿지 못해 줄 ID가 없습니다."}},
		{"producer.stuck.producer-id.unreachable", template{CatClient,
			"Producer {client} cannot start sending: as an idempotent producer (enable.idempotence) it needs a producer id, but broker {node}, which it asks, does not answer ({failure}), and no controller can take that broker out of the metadata: broker {broker} reaches no active controller.",
			"프로듀서 {client}가 보내기를 시작하지 못합니다: 멱등성 프로듀서(enable.idempotence)라 프로듀서 ID가 필요한데, 요청을 받은 브로커 {node}가 응답하지 않고({failure}), 그 브로커를 메타데이터에서 뺄 컨트롤러도 없습니다: 브로커 {broker}가 닿을 수 있는 활성 컨트롤러가 없습니다."}},
		{"producer.recovered", template{CatClient,
			"Producer {client}'s writes to {tp} succeed again.",
			"프로듀서 {client}의 {tp} 쓰기가 다시 성공합니다."}},

		// A cause without a sentence of its own (a kind added to
		// core/protocol/cause.go but not here; a test catches it).
		{"consumer.stuck", template{CatClient,
			"Consumer {client} keeps failing: broker {broker} explains it as {cause}.",
			"컨슈머 {client}가 계속 실패합니다: 브로커 {broker}가 밝힌 원인은 {cause}입니다."}},
		{"producer.stuck", template{CatClient,
			"Producer {client} keeps failing: broker {broker} explains it as {cause}.",
			"프로듀서 {client}가 계속 실패합니다: 브로커 {broker}가 밝힌 원인은 {cause}입니다."}},
	} {
		catalog[e.key] = e.template
	}
}
