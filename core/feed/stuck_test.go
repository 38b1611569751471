package feed_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kafkascope/core/console"
	"kafkascope/core/event"
	"kafkascope/core/feed"
	"kafkascope/core/hashing"
	"kafkascope/core/i18n"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// A client stuck on an obstacle the cluster knows gets one feed entry per
// episode and cause, in both languages, naming the client, the cause and
// the config involved; the tools print what Kafka's print.

// stuckRun is a console session whose feed the tests read.
type stuckRun struct {
	t *testing.T
	s *console.Session
}

func newStuckRun(t *testing.T, cmds ...string) *stuckRun {
	r := &stuckRun{t: t, s: console.NewSession()}
	r.run(cmds...)
	return r
}

// run executes commands; "cmd <<< a|b" gives cmd the standard input a, b.
func (r *stuckRun) run(cmds ...string) []string {
	var out []string
	for _, c := range cmds {
		line, in, _ := strings.Cut(c, " <<< ")
		var stdin []string
		if in != "" {
			stdin = strings.Split(in, "|")
		}
		out = append(out, r.s.Exec(line, stdin)...)
		if c := r.s.Cluster(); c != nil {
			// These tests count the clients' requests over the whole run.
			c.World.Trace().SetMessageWindow(sim.DefaultTraceLimit)
		}
	}
	return out
}

func (r *stuckRun) trace() *sim.Trace { return r.s.Cluster().World.Trace() }

// clientEntries are the feed's entries about stuck or recovered clients.
func (r *stuckRun) clientEntries() []feed.Entry {
	var out []feed.Entry
	for _, e := range feed.Recent(r.trace(), 0, 0) {
		if e.Category == feed.CatClient {
			out = append(out, e)
		}
	}
	return out
}

// sentence is one entry as both languages render it.
type sentence struct{ en, ko string }

// expect checks that the client entries are exactly want, in order.
func (r *stuckRun) expect(want ...sentence) {
	r.t.Helper()
	got := r.clientEntries()
	var gotText []string
	for _, e := range got {
		gotText = append(gotText, e.Text(i18n.English)+"\n  "+e.Text(i18n.Korean))
	}
	if len(got) != len(want) {
		r.t.Fatalf("%d client entries, want %d:\n%s", len(got), len(want), strings.Join(gotText, "\n"))
	}
	for i, w := range want {
		if en := got[i].Text(i18n.English); en != w.en {
			r.t.Errorf("entry %d (%s) in English:\n got %s\nwant %s", i, got[i].Key, en, w.en)
		}
		if ko := got[i].Text(i18n.Korean); ko != w.ko {
			r.t.Errorf("entry %d (%s) in Korean:\n got %s\nwant %s", i, got[i].Key, ko, w.ko)
		}
	}
}

// requests counts the requests of kind a client host sent (deliveries and
// refusals alike): how often it retried.
func (r *stuckRun) requests(hostPrefix, kind string) int {
	n := 0
	for _, e := range r.trace().Since(0) {
		if (e.Kind == sim.TraceDeliver || e.Kind == sim.TraceDrop) && e.Env != nil &&
			strings.HasPrefix(e.Env.From.Host(), hostPrefix) && e.Env.Msg.Kind() == kind {
			n++
		}
	}
	return n
}

// leaderOf reads a partition's leader from kafka-topics.sh --describe.
func (r *stuckRun) leaderOf(topic string, partition int) int {
	r.t.Helper()
	re := regexp.MustCompile(fmt.Sprintf(`\tPartition: %d\tLeader: (-?\d+)\t`, partition))
	for _, l := range r.run("kafka-topics.sh --describe --topic " + topic) {
		if m := re.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	r.t.Fatalf("no partition %d in the description of %s", partition, topic)
	return 0
}

// offsetsPartition is the __consumer_offsets partition of group (50 of them).
func offsetsPartition(group string) int {
	return int(hashing.CoordinatorPartition(group, 50))
}

func endsWith(t *testing.T, out []string, want ...string) {
	t.Helper()
	if len(out) < len(want) || !slices.Equal(out[len(out)-len(want):], want) {
		t.Fatalf("output ends %q, want %q", out[max(0, len(out)-len(want)):], want)
	}
}

// The case: three combined nodes, two killed. The quorum has no
// leader, so the surviving broker can create neither the topic nor
// __consumer_offsets. The console consumer prints Kafka's TimeoutException
// and nothing else; the feed says why, once per cause although the
// consumer asked many times.
func TestFeedSaysWhyAConsumerFindsNoCoordinatorWithoutAController(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3", "broker kill 2", "broker kill 3", "time advance 20s")
	out := r.run("kafka-console-consumer.sh --topic t --group g --timeout-ms 10000")
	endsWith(t, out, "org.apache.kafka.common.errors.TimeoutException", "Processed a total of 0 messages")
	if n := r.requests("kafka-console-consumer", "FindCoordinator"); n < 5 {
		t.Fatalf("the consumer asked for its coordinator %d times: not the retries this test is about", n)
	}
	if n := r.requests("kafka-console-consumer", "Metadata"); n < 5 {
		t.Fatalf("the consumer asked for metadata %d times", n)
	}
	r.expect(
		sentence{"Consumer console-consumer waits for topic t: it does not exist, and broker 1 cannot create it because it reaches no active controller (the KRaft quorum has no leader, or none answers).",
			"컨슈머 console-consumer가 토픽 t을(를) 기다립니다: 토픽이 없는데, 브로커 1이 닿을 수 있는 활성 컨트롤러가 없어(KRaft 쿼럼에 리더가 없거나 응답하지 않음) 만들 수 없습니다."},
		sentence{"Consumer console-consumer (group g) finds no group coordinator: __consumer_offsets does not exist yet, and broker 1 cannot create it because it reaches no active controller (the KRaft quorum has no leader, or none answers).",
			"컨슈머 console-consumer(그룹 g)가 그룹 코디네이터를 찾지 못합니다: __consumer_offsets가 아직 없는데, 브로커 1이 닿을 수 있는 활성 컨트롤러가 없어(KRaft 쿼럼에 리더가 없거나 응답하지 않음) 이 토픽을 만들 수 없습니다."},
	)
}

// __consumer_offsets asks for more replicas than there are brokers: the
// controller refuses it, and the broker says how many it has.
func TestFeedSaysWhyOffsetsTopicCannotBeCreated(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 2 --config offsets.topic.replication.factor=3",
		"kafka-topics.sh --create --topic t --replication-factor 2")
	out := r.run("kafka-console-consumer.sh --topic t --group g --timeout-ms 10000")
	endsWith(t, out, "org.apache.kafka.common.errors.TimeoutException", "Processed a total of 0 messages")
	if n := r.requests("kafka-console-consumer", "FindCoordinator"); n < 5 {
		t.Fatalf("the consumer asked for its coordinator %d times", n)
	}
	r.expect(sentence{
		"Consumer console-consumer (group g) finds no group coordinator: __consumer_offsets cannot be created, because offsets.topic.replication.factor is 3 but only 2 broker(s) are registered.",
		"컨슈머 console-consumer(그룹 g)가 그룹 코디네이터를 찾지 못합니다: offsets.topic.replication.factor는 3인데 등록된 브로커가 2개뿐이라 __consumer_offsets를 만들 수 없습니다."})
	// The broker's own notes tell of its first request and first refusal,
	// not of every retry.
	asked, refused := 0, 0
	for _, e := range feed.Recent(r.trace(), 0, 0) {
		switch {
		case e.Key == "topic.autocreate" && e.Fields["topics"] == "__consumer_offsets":
			asked++
		case e.Key == "group.offsets-topic":
			refused++
		}
	}
	if asked != 2 || refused != 2 {
		t.Fatalf("the two brokers noted %d requests to create __consumer_offsets and %d refusals, want one each", asked, refused)
	}
}

// The group's __consumer_offsets partition lost its only replica.
func TestFeedSaysWhyTheCoordinatorPartitionHasNoLeader(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3 --controllers 1 --config offsets.topic.replication.factor=1",
		"kafka-topics.sh --create --topic t --replica-assignment 1",
		"kafka-console-consumer.sh --topic t --group first --timeout-ms 1000")
	// A group whose coordinator partition lives on broker 2 (not the
	// controller, node 1).
	group := ""
	for i := range 100 {
		g := fmt.Sprintf("g%d", i)
		if r.leaderOf("__consumer_offsets", offsetsPartition(g)) == 2 {
			group = g
			break
		}
	}
	if group == "" {
		t.Fatal("no group coordinated by broker 2")
	}
	r.run("broker kill 2", "time advance 15s")
	r.run("kafka-console-consumer.sh --topic t --group " + group + " --timeout-ms 3000")
	tp := fmt.Sprintf("__consumer_offsets-%d", offsetsPartition(group))
	r.expect(sentence{
		"Consumer console-consumer (group " + group + ") finds no group coordinator: the group's partition " + tp + " has no leader, because its ISR is empty and none of its eligible leader replicas [2] is online.",
		"컨슈머 console-consumer(그룹 " + group + ")가 그룹 코디네이터를 찾지 못합니다: 그룹을 맡은 파티션 " + tp + "의 ISR이 비어 있고 리더 후보 복제본 [2] 중 살아 있는 것이 없어 리더가 없습니다."})
}

// The case once __consumer_offsets exists: the surviving broker
// still names the dead coordinator (no controller can move it), and the
// consumer goes round FindCoordinator → disconnected → FindCoordinator.
// The feed says so once, instead of "found" and "lost" at every turn.
func TestFeedSaysWhyAConsumerKeepsLosingItsCoordinatorWithoutAController(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3",
		"kafka-topics.sh --create --topic t --replication-factor 3",
		"kafka-console-producer.sh --topic t <<< a|b",
		"kafka-console-consumer.sh --topic t --group g --from-beginning --max-messages 2",
		"time advance 1s")
	coordinator := r.leaderOf("__consumer_offsets", offsetsPartition("g"))
	alive := 1
	if coordinator == 1 {
		alive = 2
	}
	for id := 1; id <= 3; id++ {
		if id != alive {
			r.run(fmt.Sprintf("broker kill %d", id))
		}
	}
	r.run("time advance 20s")
	before := r.trace().Count()
	out := r.run("kafka-console-consumer.sh --topic t --group g --timeout-ms 10000")
	endsWith(t, out, "org.apache.kafka.common.errors.TimeoutException", "Processed a total of 0 messages")
	if n := r.requests("kafka-console-consumer-", "FindCoordinator"); n < 10 {
		t.Fatalf("the consumers asked for the coordinator %d times: the loop this test is about did not happen", n)
	}
	var got []string
	for _, e := range feed.Recent(r.trace(), before, 0) {
		if strings.HasPrefix(e.Key, "consumer.") {
			got = append(got, e.Text(i18n.English))
		}
	}
	want := []string{
		fmt.Sprintf("Consumer console-consumer found group g's coordinator: broker %d.", coordinator),
		fmt.Sprintf("Consumer console-consumer (group g) keeps losing its coordinator, broker %d (disconnected), and no controller can move the group to a live broker: broker %d, which named it, reaches no active controller.", coordinator, alive),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("consumer entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	last := r.clientEntries()[len(r.clientEntries())-1]
	// The particles follow the numbers' sounds (3을 but 2를; 1이 but 2가).
	if ko := feed.FixKoreanParticles(fmt.Sprintf("컨슈머 console-consumer(그룹 g)가 코디네이터인 브로커 %d를 계속 잃는데(disconnected), 그룹을 살아 있는 브로커로 옮길 컨트롤러가 없습니다: 이 코디네이터를 알려 준 브로커 %d가 닿을 수 있는 활성 컨트롤러가 없습니다.", coordinator, alive)); last.Text(i18n.Korean) != ko || strings.Contains(ko, "브로커 1가") || strings.Contains(ko, "브로커 3를") {
		t.Fatalf("in Korean:\n got %s\nwant %s", last.Text(i18n.Korean), ko)
	}
}

// The leader is dead and no controller can elect another: a producer
// without idempotence and a consumer of one partition, each told once.
func TestFeedSaysWhyALeaderCannotBeReplacedWithoutAController(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3",
		"kafka-topics.sh --create --topic t --replica-assignment 3:1:2",
		"time advance 1s", "broker kill 2", "broker kill 3", "time advance 20s")
	r.run("kafka-console-producer.sh --topic t --producer-property enable.idempotence=false --producer-property acks=1 --producer-property delivery.timeout.ms=5000 --producer-property request.timeout.ms=3000 <<< b",
		"kafka-console-consumer.sh --topic t --partition 0 --offset 0 --timeout-ms 3000")
	if n := r.requests("kafka-console-producer", "Produce"); n < 3 {
		t.Fatalf("the producer sent %d requests", n)
	}
	r.expect(
		sentence{"Producer console-producer cannot write to t-0: its leader, broker 3, does not answer (disconnected), and no controller can elect another: broker 1 reaches no active controller.",
			"프로듀서 console-producer가 t-0에 쓰지 못합니다: 리더인 브로커 3이 응답하지 않는데(disconnected), 새 리더를 뽑을 컨트롤러가 없습니다: 브로커 1이 닿을 수 있는 활성 컨트롤러가 없습니다."},
		sentence{"Consumer console-consumer cannot read t-0: its leader, broker 3, does not answer (disconnected), and no controller can elect another: broker 1 reaches no active controller.",
			"컨슈머 console-consumer가 t-0에서 읽지 못합니다: 리더인 브로커 3이 응답하지 않는데(disconnected), 새 리더를 뽑을 컨트롤러가 없습니다: 브로커 1이 닿을 수 있는 활성 컨트롤러가 없습니다."},
	)
}

// An idempotent producer needs a producer id, which only a controller can
// hand out in blocks. Broker 1 stopped (it was the only controller);
// broker 2 has no block and reaches no controller.
func TestFeedSaysWhyAnIdempotentProducerGetsNoProducerID(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 2 --controllers 1",
		"kafka-topics.sh --create --topic t --replica-assignment 2",
		"broker stop 1", "time advance 20s")
	out := r.run("kafka-console-producer.sh --topic t --bootstrap-server kafka-2:9092 --producer-property delivery.timeout.ms=5000 --producer-property request.timeout.ms=3000 <<< a")
	endsWith(t, out, "org.apache.kafka.common.errors.TimeoutException: Expiring 1 record(s) for t-0:5000 ms has passed since batch creation")
	if n := r.requests("kafka-console-producer", "InitProducerId"); n < 5 {
		t.Fatalf("the producer asked for a producer id %d times", n)
	}
	r.expect(sentence{
		"Producer console-producer cannot start sending: as an idempotent producer (enable.idempotence) it needs a producer id, and broker 2 has none to give because it reaches no active controller to allocate a block of them.",
		"프로듀서 console-producer가 보내기를 시작하지 못합니다: 멱등성 프로듀서(enable.idempotence)라 프로듀서 ID가 필요한데, 브로커 2가 ID 블록을 나눠 줄 활성 컨트롤러에 닿지 못해 줄 ID가 없습니다."})
}

// acks=all below min.insync.replicas: NOT_ENOUGH_REPLICAS at every retry,
// one entry; when a follower is back in the ISR the write succeeds, and the
// feed says so.
func TestFeedSaysWhyAcksAllWritesFailAndWhenTheyRecover(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3 --controllers 1",
		"kafka-topics.sh --create --topic t --replica-assignment 1:2:3 --config min.insync.replicas=2",
		"broker kill 2", "broker kill 3", "time advance 15s",
		"kafka-console-producer.sh --topic t --producer-property retries=100 & <<< a",
		"time advance 5s")
	if n := r.requests("kafka-console-producer", "Produce"); n < 5 {
		t.Fatalf("the producer sent %d requests", n)
	}
	r.run("broker start 2", "time advance 10s")
	r.expect(
		sentence{"Producer console-producer's acks=all writes to t-0 fail with NOT_ENOUGH_REPLICAS: the ISR [1] of leader 1 is smaller than min.insync.replicas=2.",
			"프로듀서 console-producer의 t-0 acks=all 쓰기가 NOT_ENOUGH_REPLICAS로 실패합니다: 리더 1의 ISR [1] 크기가 min.insync.replicas=2보다 작습니다."},
		sentence{"Producer console-producer's writes to t-0 succeed again.",
			"프로듀서 console-producer의 t-0 쓰기가 다시 성공합니다."},
	)
}

// A partition whose only replica is down has no leader: the producer holds
// its records, the consumer cannot read.
func TestFeedSaysWhyAPartitionHasNoLeader(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3 --controllers 1",
		"kafka-topics.sh --create --topic t --replica-assignment 2",
		"broker kill 2", "time advance 15s")
	out := r.run("kafka-console-producer.sh --topic t --producer-property delivery.timeout.ms=5000 --producer-property request.timeout.ms=3000 <<< c")
	endsWith(t, out, "org.apache.kafka.common.errors.TimeoutException: Expiring 1 record(s) for t-0:5000 ms has passed since batch creation")
	r.run("kafka-console-consumer.sh --topic t --partition 0 --offset 0 --timeout-ms 3000")
	r.expect(
		sentence{"Producer console-producer holds its records for t-0: the partition has no leader, because its ISR is empty and none of its eligible leader replicas [2] is online, and they fail once delivery.timeout.ms has passed.",
			"프로듀서 console-producer가 t-0으로 갈 레코드를 붙잡고 있습니다: ISR이 비어 있고 리더 후보 복제본 [2] 중 살아 있는 것이 없어 파티션에 리더가 없고, delivery.timeout.ms가 지나면 레코드는 실패합니다."},
		sentence{"Consumer console-consumer cannot read t-0: the partition has no leader, because its ISR is empty and none of its eligible leader replicas [2] is online.",
			"컨슈머 console-consumer가 t-0에서 읽지 못합니다: ISR이 비어 있고 리더 후보 복제본 [2] 중 살아 있는 것이 없어 파티션에 리더가 없습니다."},
	)
}

// The topic does not exist and the brokers do not auto-create it.
func TestFeedSaysWhyATopicIsNotCreated(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3 --config auto.create.topics.enable=false")
	r.run("kafka-console-consumer.sh --topic nope --group g --timeout-ms 3000")
	out := r.run("kafka-console-producer.sh --topic nope --producer-property max.block.ms=3000 <<< a")
	endsWith(t, out, "org.apache.kafka.common.errors.TimeoutException: Topic nope not present in metadata after 3000 ms.")
	r.expect(
		sentence{"Consumer console-consumer waits for topic nope: it does not exist, and broker 1 does not create topics a client asks for (auto.create.topics.enable=false).",
			"컨슈머 console-consumer가 토픽 nope을(를) 기다립니다: 토픽이 없고, 브로커 1은 클라이언트가 찾는 토픽을 만들지 않습니다(auto.create.topics.enable=false)."},
		sentence{"Producer console-producer cannot send to topic nope: it does not exist, and broker 1 does not create topics a client asks for (auto.create.topics.enable=false), so send() waits up to max.block.ms.",
			"프로듀서 console-producer가 토픽 nope에 보내지 못합니다: 토픽이 없고 브로커 1은 클라이언트가 찾는 토픽을 만들지 않으므로(auto.create.topics.enable=false) send()가 max.block.ms까지 기다립니다."},
	)
}

// Auto-creation is on, but default.replication.factor exceeds the brokers.
func TestFeedSaysWhyAnAutoCreatedTopicIsRefused(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3 --config default.replication.factor=4")
	r.run("kafka-console-producer.sh --topic nope --producer-property max.block.ms=3000 <<< a")
	r.expect(sentence{
		"Producer console-producer cannot send to topic nope: it cannot be created, because default.replication.factor is 4 but only 3 broker(s) are registered.",
		"프로듀서 console-producer가 토픽 nope에 보내지 못합니다: default.replication.factor는 4인데 등록된 브로커가 3개뿐이라 토픽을 만들 수 없습니다."})
}

// A healthy cluster: a producer and a group consumer that work get no
// client entries (the first FindCoordinator's COORDINATOR_NOT_AVAILABLE,
// while __consumer_offsets is created, is not an obstacle).
func TestFeedSaysNothingOfClientsThatWork(t *testing.T) {
	r := newStuckRun(t, "cluster create --brokers 3",
		"kafka-topics.sh --create --topic t --replication-factor 3",
		"kafka-console-producer.sh --topic t <<< a|b",
		"kafka-console-consumer.sh --topic t --group g --from-beginning --max-messages 2",
		"kafka-console-producer.sh --topic fresh <<< a")
	r.expect()
}

// Every kind of cause a client can note has a sentence of its own for each
// client that can meet it, in both languages, with every field filled.
func TestEveryStuckCauseHasSentences(t *testing.T) {
	fields := map[string]string{"broker": "1", "registered": "2", "rf": "3", "error": "E",
		"tp": "t-0", "isr": "1", "min": "2", "topic": "t", "coordinator": "3", "leader": "3", "failure": "disconnected", "node": "2"}
	kinds := map[string][]string{
		"consumer": {protocol.CauseOffsetsTopicNoController, protocol.CauseOffsetsTopicReplication, protocol.CauseOffsetsTopicCreateFailed,
			protocol.CauseCoordinatorNoLeader, protocol.CauseCoordinatorUnreachable, protocol.CauseTopicAutoCreateDisabled,
			protocol.CauseTopicNoController, protocol.CauseTopicReplication, protocol.CauseTopicCreateFailed,
			protocol.CausePartitionNoLeader, protocol.CauseLeaderUnreachable},
		"producer": {protocol.CauseTopicAutoCreateDisabled, protocol.CauseTopicNoController, protocol.CauseTopicReplication,
			protocol.CauseTopicCreateFailed, protocol.CausePartitionNoLeader, protocol.CauseLeaderUnreachable,
			protocol.CauseNotEnoughReplicas, protocol.CauseProducerIDNoController, protocol.CauseProducerIDUnreachable},
	}
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	for role, list := range kinds {
		for _, kind := range list {
			var n sim.Note = event.ProducerStuck{Client: "c", Cause: kind, CauseFields: flatten(fields)}
			if role == "consumer" {
				n = event.ConsumerStuck{Client: "c", Group: "g", Cause: kind, CauseFields: flatten(fields)}
			}
			e, ok := feed.FromTrace(sim.TraceEvent{Kind: sim.TraceNote, Detail: n.Key(), Note: n})
			if !ok || e.Key != role+".stuck."+kind || e.Category != feed.CatClient {
				t.Errorf("%s.stuck with cause %s: entry %q (shown %v)", role, kind, e.Key, ok)
				continue
			}
			for _, lang := range []i18n.Lang{i18n.English, i18n.Korean} {
				if text := e.Text(lang); placeholder.MatchString(text) || strings.Count(text, ". ") > 0 {
					t.Errorf("%s (%s): %q has an unfilled field or more than one sentence", e.Key, lang, text)
				}
			}
		}
	}
}

func flatten(m map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, k, m[k])
	}
	return out
}
