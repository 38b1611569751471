package feed

// Categories group events for filtering and for the timeline's markers.
const (
	CatLifecycle = "lifecycle" // a broker registered, started serving, shut down
	CatCrash     = "crash"     // a process died or lost power; a broker was fenced
	CatElection  = "election"  // a partition got a new leader (or none)
	CatISR       = "isr"       // an ISR changed or a change was requested
	CatTopic     = "topic"     // topics created, deleted, grown
	CatData      = "data"      // appends, rejections, truncations
	CatRecovery  = "recovery"  // log recovery at start
)

type template struct {
	cat    string
	en, ko string
}

// catalog holds one sentence per event key, written for this project in
// English and Korean. {name} is replaced by the event's field.
var catalog = map[string]template{
	"controller.active": {CatLifecycle,
		"Node {node} became the active controller (epoch {epoch}).",
		"노드 {node}가 활성 컨트롤러가 되었습니다(에포크 {epoch})."},
	"broker.registered": {CatLifecycle,
		"Broker {broker} registered with the controller and got broker epoch {epoch}.",
		"브로커 {broker}가 컨트롤러에 등록하고 브로커 에포크 {epoch}를 받았습니다."},
	"broker.registration.refused": {CatLifecycle,
		"The controller refused broker {broker}'s registration ({error}); it retries in {backoff}.",
		"컨트롤러가 브로커 {broker}의 등록을 거절했습니다({error}). {backoff} 뒤에 다시 시도합니다."},
	"broker.unfenced": {CatLifecycle,
		"The controller unfenced broker {broker}: it has caught up with the metadata.",
		"브로커 {broker}가 메타데이터를 따라잡아 컨트롤러가 펜싱을 풀었습니다."},
	"broker.serving": {CatLifecycle,
		"Broker {broker} is serving clients.",
		"브로커 {broker}가 클라이언트 요청을 받기 시작했습니다."},
	"broker.fenced": {CatCrash,
		"The controller fenced broker {broker} ({reason}): it leaves every ISR and loses its leaderships.",
		"컨트롤러가 브로커 {broker}를 펜싱했습니다({reason}). 모든 ISR에서 빠지고 리더 자리도 잃습니다."},
	"broker.shutdown.started": {CatLifecycle,
		"Broker {broker} is shutting down and asks the controller to move its leaderships away first.",
		"브로커 {broker}가 종료를 시작하며 컨트롤러에 리더 자리를 먼저 옮겨 달라고 요청합니다."},
	"broker.shutdown.controlled": {CatLifecycle,
		"The controller moves every leadership off broker {broker} (controlled shutdown).",
		"컨트롤러가 브로커 {broker}의 리더 자리를 모두 다른 브로커로 옮깁니다(제어된 종료)."},
	"broker.shutdown.finished": {CatLifecycle,
		"Broker {broker} flushed its logs and shut down cleanly.",
		"브로커 {broker}가 로그를 디스크에 내리고 깨끗하게 종료했습니다."},
	"process.started": {CatLifecycle,
		"Broker {broker} started.",
		"브로커 {broker}가 시작되었습니다."},
	"process.killed": {CatCrash,
		"Broker {broker} crashed (its process was killed; the page cache survives).",
		"브로커 {broker}가 죽었습니다(프로세스 종료, 페이지 캐시는 남음)."},
	"process.power-loss": {CatCrash,
		"Broker {broker}'s machine lost power: writes not yet flushed to disk are gone.",
		"브로커 {broker}의 서버 전원이 나갔습니다. 디스크에 내려가지 않은 쓰기는 사라집니다."},
	"process.exited": {CatLifecycle,
		"Broker {broker}'s process exited.",
		"브로커 {broker}의 프로세스가 끝났습니다."},
	"topic.created": {CatTopic,
		"The controller created topic {topic} with {partitions} partition(s) and replication factor {rf}.",
		"컨트롤러가 토픽 {topic}을 파티션 {partitions}개, 복제 계수 {rf}로 만들었습니다."},
	"topic.deleted": {CatTopic,
		"The controller deleted topic {topic}.",
		"컨트롤러가 토픽 {topic}을 삭제했습니다."},
	"topic.autocreate": {CatTopic,
		"Broker {broker} asked the controller to create {topics} because a client asked for it (auto.create.topics.enable).",
		"클라이언트가 찾는 토픽 {topics}이 없어 브로커 {broker}가 컨트롤러에 생성을 요청했습니다(auto.create.topics.enable)."},
	"partitions.increased": {CatTopic,
		"The controller raised {topic} to {count} partitions.",
		"컨트롤러가 {topic}의 파티션을 {count}개로 늘렸습니다."},
	"leader.elected": {CatElection,
		"{tp} has a new leader: broker {leader} at leader epoch {epoch} (ISR {isr}).",
		"{tp}의 새 리더는 브로커 {leader}입니다. 리더 에포크 {epoch}, ISR {isr}."},
	"leader.elected.none": {CatElection,
		"{tp} has no leader now (leader epoch {epoch}): no replica in the ISR {isr} is available.",
		"{tp}에 리더가 없습니다(리더 에포크 {epoch}). ISR {isr} 중 쓸 수 있는 복제본이 없습니다."},
	"leader.elected.unclean": {CatElection,
		"Unclean election: broker {leader} leads {tp} at epoch {epoch} although it was not in the ISR; records only the old leader had are lost.",
		"언클린 선출: ISR에 없던 브로커 {leader}가 에포크 {epoch}로 {tp}의 리더가 되었습니다. 이전 리더만 가졌던 레코드는 사라집니다."},
	"leader.started": {CatElection,
		"Broker {broker} starts leading {tp} at epoch {epoch} from log end offset {leo}.",
		"브로커 {broker}가 로그 끝 오프셋 {leo}에서 에포크 {epoch}로 {tp}의 리더를 시작합니다."},
	"leader.stopped": {CatElection,
		"Broker {broker} stops leading {tp} and follows broker {leader} (epoch {epoch}).",
		"브로커 {broker}가 {tp}의 리더를 내려놓고 브로커 {leader}를 따릅니다(에포크 {epoch})."},
	"leaders.rebalanced": {CatElection,
		"The controller moved {count} partition leadership(s) back to their preferred replicas (auto.leader.rebalance.enable).",
		"컨트롤러가 리더 {count}개를 선호 복제본으로 되돌렸습니다(auto.leader.rebalance.enable)."},
	"isr.changed": {CatISR,
		"The ISR of {tp} is now {isr}.",
		"{tp}의 ISR이 이제 {isr}입니다."},
	"isr.shrink.requested": {CatISR,
		"Leader {broker} asks to shrink the ISR of {tp} from {from} to {to}: {replicas} fell behind for longer than replica.lag.time.max.ms.",
		"리더 {broker}가 {tp}의 ISR을 {from}에서 {to}로 줄여 달라고 요청합니다. {replicas}이(가) replica.lag.time.max.ms보다 오래 뒤처졌습니다."},
	"isr.expand.requested": {CatISR,
		"Leader {broker} asks to add broker {replica} back to the ISR of {tp} ({from} → {to}): it has caught up.",
		"리더 {broker}가 따라잡은 브로커 {replica}를 {tp}의 ISR에 다시 넣어 달라고 요청합니다({from} → {to})."},
	"produce.appended": {CatData,
		"Leader {broker} appended offsets {first}..{last} to {tp} (epoch {epoch}).",
		"리더 {broker}가 {tp}에 오프셋 {first}..{last}를 기록했습니다(에포크 {epoch})."},
	"produce.rejected": {CatData,
		"Leader {broker} refused an acks=all write to {tp}: the ISR {isr} is smaller than min.insync.replicas={min} (NOT_ENOUGH_REPLICAS).",
		"리더 {broker}가 {tp}에 대한 acks=all 쓰기를 거절했습니다. ISR {isr}이 min.insync.replicas={min}보다 작습니다(NOT_ENOUGH_REPLICAS)."},
	"follower.truncated": {CatData,
		"Follower {broker} truncated {tp} from {from} to {to}: the leader says epoch {epoch} ended at offset {end}.",
		"팔로워 {broker}가 {tp}를 {from}에서 {to}로 잘라냈습니다. 리더의 답: 에포크 {epoch}는 오프셋 {end}에서 끝났습니다."},
	"follower.truncated.to-hw": {CatData,
		"Follower {broker} truncated {tp} from {from} to its own high watermark {to} (the rule before leader epochs, KIP-101).",
		"팔로워 {broker}가 {tp}를 {from}에서 자기 하이 워터마크 {to}로 잘라냈습니다(리더 에포크 이전의 규칙, KIP-101)."},
	"follower.truncated.to-leader-end": {CatData,
		"Follower {broker} truncated {tp} from {from} to the leader's log end offset {to}.",
		"팔로워 {broker}가 {tp}를 {from}에서 리더의 로그 끝 오프셋 {to}로 잘라냈습니다."},
	"follower.reset": {CatData,
		"Follower {broker} restarts {tp} at the leader's log start offset {offset}.",
		"팔로워 {broker}가 {tp}를 리더의 로그 시작 오프셋 {offset}부터 다시 시작합니다."},
	"follower.append.failed": {CatData,
		"Follower {broker} could not append fetched data to {tp}: {error}.",
		"팔로워 {broker}가 가져온 데이터를 {tp}에 기록하지 못했습니다: {error}."},
	"replica.deleted": {CatTopic,
		"Broker {broker} deleted its replica of {tp}.",
		"브로커 {broker}가 {tp} 복제본을 지웠습니다."},
	"log.recovered": {CatRecovery,
		"Broker {broker} recovered {tp} after a crash: log end offset {leo}, {truncated} bytes of invalid tail cut.",
		"브로커 {broker}가 충돌 후 {tp}를 복구했습니다. 로그 끝 오프셋 {leo}, 잘못된 꼬리 {truncated}바이트 제거."},
}

// reasons explain fencing reasons in each language.
var reasons = map[string][2]string{
	"session": {"no heartbeat for broker.session.timeout.ms", "broker.session.timeout.ms 동안 하트비트 없음"},
	"asked":   {"it asked to be fenced", "브로커가 펜싱을 요청함"},
}
