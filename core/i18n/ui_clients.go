package i18n

// The diagram's clients' cards: producers (accumulator and sender) and
// consumer groups. Kept apart from i18n.go so the strings of one part of
// the diagram stay together; init adds them to uiText (a key defined twice
// is a mistake, and panics at start).
var uiTextClients = map[string][2]string{
	"clients.section":         {"Producers and consumer groups", "프로듀서와 컨슈머 그룹"},
	"clients.simplified":      {"Simulator: batch bytes are estimated from the records (key, value, headers, ~21 bytes each); no compression.", "시뮬레이터: 배치 크기는 레코드(키, 값, 헤더, 레코드당 약 21바이트)로 어림한 값이며, 압축은 하지 않습니다."},
	"producer":                {"producer", "프로듀서"},
	"producer.summary":        {"%s in %s · %s in flight", "%[2]s에 %[1]s · 전송 중 %[3]s"},
	"count.record":            {"%d record", "레코드 %d개"},
	"count.record.n":          {"%d records", "레코드 %d개"},
	"count.batch":             {"%d batch", "배치 %d개"},
	"count.batch.n":           {"%d batches", "배치 %d개"},
	"count.request":           {"%d request", "요청 %d개"},
	"count.request.n":         {"%d requests", "요청 %d개"},
	"producer.inflight":       {"broker %d: %d/%d in flight", "브로커 %d: 전송 중 %d/%d"},
	"producer.waiting":        {"%d sends blocked until the topic is in the metadata (max.block.ms)", "토픽이 메타데이터에 나타날 때까지 막힌 전송 %d개 (max.block.ms)"},
	"producer.waiting.memory": {"%d sends blocked until buffer.memory frees up (max.block.ms)", "buffer.memory가 빌 때까지 막힌 전송 %d개 (max.block.ms)"},
	"producer.buffer":         {"buffer.memory: %d of %d bytes held by batches", "buffer.memory: %[2]d바이트 중 %[1]d바이트를 배치가 사용 중"},
	"producer.pid":            {"idempotent: producer id %d, epoch %d", "멱등 프로듀서: producer id %d, 에포크 %d"},
	"producer.pid.none":       {"idempotent: waiting for InitProducerId", "멱등 프로듀서: InitProducerId 응답 대기 중"},
	"queue.seq":               {"next sequence %d", "다음 시퀀스 %d"},
	"producer.closing":        {"closing: every batch is sent now, linger.ms or not", "닫는 중: linger.ms와 상관없이 모든 배치를 바로 보냅니다"},
	"group":                   {"consumer group", "컨슈머 그룹"},
	"group.summary":           {"generation %d · %s · coordinator: broker %d", "세대 %d · %s · 코디네이터: 브로커 %d"},
	"group.info":              {"assignor %s · offsets in __consumer_offsets-%d on broker %d", "할당 전략 %s · 오프셋 저장 위치 __consumer_offsets-%d (브로커 %d)"},
	"group.leader":            {"group leader", "그룹 리더"},
	"group.summary.consumer":  {"group epoch %d · target epoch %d · %s · coordinator: broker %d", "그룹 에포크 %d · 목표 에포크 %d · %s · 코디네이터: 브로커 %d"},
	"group.info.consumer":     {"consumer protocol (KIP-848): each join, leave or subscription change bumps the group epoch; the coordinator computes a target for that epoch, and each member moves to it on its own heartbeats, no group-wide pause · offsets in __consumer_offsets-%d on broker %d", "컨슈머 프로토콜(KIP-848): 합류·탈퇴·구독 변경마다 그룹 에포크가 오르고, 코디네이터가 그 에포크의 목표 할당을 계산하면 각 멤버가 자기 하트비트로 목표에 다가갑니다. 그룹 전체가 멈추지 않습니다 · 오프셋 저장 위치 __consumer_offsets-%d (브로커 %d)"},
	"group.member.epoch":      {"epoch %d", "에포크 %d"},
	"group.member.state":      {"at the coordinator: %s at epoch %d", "코디네이터에서: 에포크 %[2]d의 %[1]s"},
	"group.member.revoking":   {"(giving back %s)", "(%s 반납 중)"},
	"group.member.target":     {"→ target: %s", "→ 목표: %s"},
	"group.client.state":      {"the consumer sees itself %s at generation %d", "컨슈머 자신이 보는 상태: 세대 %[2]d의 %[1]s"},
	"group.client.gone":       {"no running consumer has this member id (the coordinator expires it after session.timeout.ms)", "이 멤버 ID로 실행 중인 컨슈머가 없습니다(코디네이터가 session.timeout.ms 뒤에 만료시킵니다)"},
	"group.joining":           {"joining (%s)", "합류 중(%s)"},
	"group.position":          {"position", "위치"},
	"group.no.members":        {"Consumer group '%s' has no active members.", "컨슈머 그룹 '%s'에 활성 멤버가 없습니다."},
	"group.position.tip":      {"The consumer's position (KafkaConsumer.position): the next offset it will fetch. Records between the committed offset and it are consumed but not committed. kafka-consumer-groups.sh does not show it.", "컨슈머의 위치(KafkaConsumer.position): 다음에 가져올 오프셋입니다. 커밋된 오프셋과 이 위치 사이의 레코드는 읽었지만 아직 커밋하지 않은 것입니다. kafka-consumer-groups.sh에는 나오지 않습니다."},
	"group.nothing":           {"no partitions assigned", "할당된 파티션 없음"},
	"count.member":            {"%d member", "멤버 %d명"},
	"count.member.n":          {"%d members", "멤버 %d명"},
	"gev.rebalance":           {"rebalance from generation %d", "세대 %d에서 리밸런스 시작"},
	"gev.generation":          {"generation %d: CompletingRebalance, waiting for the leader's assignment", "세대 %d: CompletingRebalance, 리더의 할당을 기다리는 중"},
	"gev.empty":               {"generation %d: no member rejoined, Empty", "세대 %d: 다시 합류한 멤버가 없어 Empty"},
	"gev.stable":              {"Stable at generation %d", "세대 %d에서 Stable"},
	"gev.left":                {"member left: %s", "멤버 떠남: %s"},
	"gev.expired":             {"member expired (session.timeout.ms): %s", "멤버 만료(session.timeout.ms): %s"},
	"coordinator.of":          {"coordinator: %s", "코디네이터: %s"},
	"coordinator.n":           {"coordinator: %d groups", "코디네이터: 그룹 %d개"},
	"queue.empty":             {"no batch", "배치 없음"},
	"batch.records":           {"%d rec", "레코드 %d"},
	"batch.open":              {"filling · linger.ms %d ms left", "채우는 중 · linger.ms %d ms 남음"},
	"batch.ready":             {"ready: sent at the next drain", "준비됨: 다음 드레인 때 전송"},
	"batch.inflight":          {"in flight: waiting for the answer", "전송 중: 응답 대기"},
	"batch.inflight.retry":    {"in flight · retry %d", "전송 중 · 재시도 %d"},
	"batch.backoff":           {"retry %d · backoff %d ms left", "재시도 %d · 백오프 %d ms 남음"},
	"batch.tip":               {"%d records, %d of batch.size %d bytes, created %d ms ago", "레코드 %d개, batch.size %[3]d바이트 중 %[2]d바이트, %[4]d ms 전에 생성"},
}

func init() {
	for k, v := range uiTextClients {
		if _, dup := uiText[k]; dup {
			panic("i18n: UI string " + k + " defined twice")
		}
		uiText[k] = v
	}
}
