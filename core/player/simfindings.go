package player

import (
	"kafkascope/core/i18n"
	"kafkascope/core/simulate"
)

// SimFinding is one entry of the gallery's "What the simulator found": a
// known-unsafe config, a seed whose run breaks a guarantee under it, and
// the story of that run.
type SimFinding struct {
	Key, Value string   // the config (kafkasim simulate --config Key=Value)
	Seed       uint64   // a seed that fails under it
	Invariant  string   // the first violation the seed must produce
	Detail     string   // ... and text its first violation must contain (the story quotes it)
	Scenarios  []string // the hand-made scenarios that teach the same rule
	Title      [2]string
	Story      [2]string
}

// SimFindings is the one table of the gallery's simulator seeds. The
// engine decides what a seed does, so an engine change can move them:
// TestSimFindingsStillFail then fails, saying how to pick new ones.
var SimFindings = []SimFinding{
	{
		Key: "inter.broker.protocol.version", Value: "0.10",
		Seed: 34, Invariant: "isr-identical", Detail: "sim1-1: ISR member 1 differs from leader 3 below HW",
		Scenarios: []string{"06-leader-epoch-message-loss", "07-leader-epoch-divergence"},
		Title: [2]string{
			"inter.broker.protocol.version=0.10: replicas that disagree below the high watermark",
			"inter.broker.protocol.version=0.10: 하이 워터마크 아래에서 서로 다른 복제본"},
		Story: [2]string{
			"Before Kafka 0.11 (KIP-101), a follower that restarted cut its log back to its own high watermark and fetched the rest from the current leader: it kept no leader-epoch history with which to ask the leader where their two logs part. In this run brokers crash, lose power and restart while leadership moves around. After the heal, in-sync replica 1 of sim1-1 holds other records than its leader, broker 3, at offsets below the high watermark: two copies that both count as committed, and disagree. Leader epochs are what prevent it.",
			"카프카 0.11(KIP-101) 이전에는 재시작한 팔로워가 자기 하이 워터마크까지 로그를 잘라 낸 뒤 나머지를 현재 리더에게서 가져왔습니다. 두 로그가 어디서 갈라지는지 리더에게 물어볼 리더 에포크 기록이 없었기 때문입니다. 이 실행에서는 리더가 옮겨 다니는 동안 브로커들이 죽고, 전원을 잃고, 다시 시작합니다. 회복된 뒤 sim1-1의 ISR 복제본 1은 하이 워터마크 아래 오프셋에 리더인 브로커 3과 다른 레코드를 갖고 있습니다. 둘 다 커밋된 것으로 치는 복사본이 서로 다른 것입니다. 이를 막는 것이 리더 에포크입니다."},
	},
	{
		Key: "unclean.leader.election.enable", Value: "true",
		Seed: 47, Invariant: "committed-data-lost", Detail: "sim0-2 [64, 74) when broker 1 started leading epoch 2",
		Scenarios: []string{"10-unclean-election"},
		Title: [2]string{
			"unclean.leader.election.enable=true: an out-of-sync replica becomes leader",
			"unclean.leader.election.enable=true: 동기화되지 않은 복제본이 리더가 되다"},
		Story: [2]string{
			"With unclean election allowed, when no in-sync replica of a partition is left the controller may give leadership to a replica that had fallen out of the ISR, instead of leaving the partition without a leader. That replica lacks records the old leader had already committed, and once it leads, the other replicas truncate to match it. In this run brokers stop and crash one after another; when they come back, broker 1 starts leading sim0-2 in epoch 2 without the committed records at offsets 64 to 73. They are gone for good.",
			"언클린 선출을 허용하면, 파티션에 ISR 복제본이 하나도 남지 않았을 때 컨트롤러는 파티션을 리더 없이 두는 대신 ISR에서 빠졌던 복제본에게 리더를 맡길 수 있습니다. 그 복제본에는 이전 리더가 이미 커밋한 레코드가 없고, 그것이 리더가 되면 다른 복제본들도 그에 맞춰 로그를 잘라 냅니다. 이 실행에서는 브로커들이 차례로 멈추고 죽습니다. 다시 돌아왔을 때 브로커 1이 에포크 2에서 sim0-2의 리더가 되는데, 커밋되었던 오프셋 64~73의 레코드가 없습니다. 이 레코드들은 영영 사라집니다."},
	},
	{
		Key: "min.insync.replicas", Value: "1",
		Seed: 27, Invariant: "acked-write-lost", Detail: `sim0-0: acknowledged "s27-p1-r0"`,
		Scenarios: []string{"05-acks-min-isr"},
		Title: [2]string{
			"min.insync.replicas=1 with acks=all: one replica acknowledges alone",
			"min.insync.replicas=1과 acks=all: 복제본 하나가 혼자 확인해 주다"},
		Story: [2]string{
			"acks=all waits for every replica in the ISR, but min.insync.replicas=1 lets the ISR shrink to the leader alone and still take writes: then \"all\" means one copy. In this run broker 4 is stopped four seconds in, which leaves broker 2 alone in the ISR of sim0-0, whose replicas are 2 and 4. Broker 2 goes on acknowledging writes that no other replica has, and eight seconds later loses power (it is also the active controller) with them still in its page cache. It comes back as the only in-sync replica, so it leads again without them: the acknowledged record s27-p1-r0 at offset 0 is replaced by a later one. With min.insync.replicas=2 the producer would have got NOT_ENOUGH_REPLICAS instead of an acknowledgement.",
			"acks=all은 ISR에 있는 모든 복제본을 기다리지만, min.insync.replicas=1이면 ISR이 리더 하나로 줄어도 쓰기를 받습니다. 그러면 '모두'는 복사본 하나를 뜻합니다. 이 실행에서는 4초 만에 브로커 4가 멈추고, 복제본이 2와 4인 sim0-0의 ISR에는 브로커 2만 남습니다. 브로커 2는 다른 어느 복제본에도 없는 쓰기를 계속 확인해 주다가, 8초 뒤 그 레코드들이 페이지 캐시에 있는 채로 전원을 잃습니다(브로커 2는 활성 컨트롤러이기도 합니다). 다시 켜졌을 때도 유일한 ISR 복제본이므로 그 레코드 없이 다시 리더가 되고, 확인을 받았던 오프셋 0의 레코드 s27-p1-r0은 나중 레코드로 바뀝니다. min.insync.replicas=2였다면 프로듀서는 확인 대신 NOT_ENOUGH_REPLICAS를 받았을 것입니다."},
	},
}

// Link is the finding's run.
func (f SimFinding) Link() SimLink {
	return SimLink{Seed: f.Seed, Opts: simulate.Options{Overrides: map[string]string{f.Key: f.Value}}}
}

// Text is a [2]string in the chosen language.
func text(l i18n.Lang, t [2]string) string {
	if l == i18n.Korean && t[1] != "" {
		return t[1]
	}
	return t[0]
}

// FindingTitle and FindingStory are the finding's texts in the player's
// language.
func (p *Player) FindingTitle(f SimFinding) string { return text(p.Lang, f.Title) }
func (p *Player) FindingStory(f SimFinding) string { return text(p.Lang, f.Story) }
