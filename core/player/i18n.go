package player

import "kafkascope/core/feed"

// uiText holds every UI string in English and Korean (the project's own
// words). A key missing from a language falls back to English; the test
// requires both.
var uiText = map[string][2]string{
	"app.tagline":       {"A real Kafka engine in your browser", "브라우저 안에서 돌아가는 진짜 카프카 엔진"},
	"lang.switch":       {"한국어", "English"},
	"play":              {"Play", "재생"},
	"pause":             {"Pause", "일시정지"},
	"step":              {"Step", "한 단계"},
	"step.title":        {"Run the next event", "다음 이벤트 하나 실행"},
	"skip":              {"Skip idle", "빈 시간 건너뛰기"},
	"skip.title":        {"Jump to the next moment something happens", "다음 일이 일어나는 순간으로 이동"},
	"speed":             {"Speed", "속도"},
	"time":              {"Time", "시간"},
	"share":             {"Copy link", "링크 복사"},
	"share.done":        {"Link copied", "링크를 복사했습니다"},
	"embed":             {"Copy embed code", "임베드 코드 복사"},
	"embed.done":        {"Embed code copied", "임베드 코드를 복사했습니다"},
	"open.full":         {"Open in kafkascope", "kafkascope에서 열기"},
	"scenarios":         {"Scenarios", "시나리오"},
	"scenarios.intro":   {"Each scenario is a narrated session on the real engine. Pick one to play it step by step.", "시나리오마다 진짜 엔진 위에서 진행되는 해설 세션입니다. 하나를 골라 단계별로 따라가 보세요."},
	"back":              {"Back", "이전"},
	"next":              {"Next", "다음"},
	"close":             {"Close", "닫기"},
	"story.step":        {"Step %d of %d", "%d / %d 단계"},
	"story.start":       {"Press Next to begin.", "다음을 눌러 시작하세요."},
	"story.end":         {"The end of this scenario. Try your own commands in the terminal.", "시나리오가 끝났습니다. 터미널에서 직접 명령을 실행해 보세요."},
	"story.running":     {"Running this step's commands…", "이 단계의 명령을 실행하는 중…"},
	"events":            {"Events", "이벤트"},
	"events.data":       {"Show appends", "기록 이벤트 표시"},
	"terminal":          {"Terminal", "터미널"},
	"terminal.hint":     {"Type help. ↑/↓ history, Tab completes, Ctrl-C stops.", "help를 입력해 보세요. ↑/↓ 이전 명령, Tab 자동 완성, Ctrl-C 중지."},
	"terminal.stdin":    {"Input lines for the producer; an empty line sends them.", "프로듀서에 보낼 입력입니다. 빈 줄을 입력하면 보냅니다."},
	"terminal.busy":     {"running…", "실행 중…"},
	"diagram":           {"Cluster", "클러스터"},
	"controller":        {"controller", "컨트롤러"},
	"controller.down":   {"no active controller: metadata is frozen", "활성 컨트롤러 없음: 메타데이터 변경이 멈췄습니다"},
	"broker":            {"broker", "브로커"},
	"leader":            {"leader", "리더"},
	"follower":          {"follower", "팔로워"},
	"offline":           {"offline", "오프라인"},
	"isr":               {"ISR", "ISR"},
	"hw":                {"HW", "HW"},
	"leo":               {"LEO", "LEO"},
	"epoch":             {"epoch", "에포크"},
	"committed":         {"committed (below the HW)", "커밋됨(HW 아래)"},
	"uncommitted":       {"not yet committed", "아직 커밋되지 않음"},
	"state.running":     {"running", "실행 중"},
	"state.killed":      {"killed", "죽음"},
	"state.power-off":   {"power off", "전원 꺼짐"},
	"state.stopped":     {"stopped", "정지됨"},
	"state.fenced":      {"fenced", "펜싱됨"},
	"state.isolated":    {"isolated", "고립됨"},
	"state.starting":    {"starting", "시작 중"},
	"action.kill":       {"Kill (crash)", "강제 종료(크래시)"},
	"action.power-loss": {"Power loss", "전원 차단"},
	"action.stop":       {"Stop (SIGTERM)", "정상 종료(SIGTERM)"},
	"action.start":      {"Start", "시작"},
	"action.isolate":    {"Isolate from the network", "네트워크에서 고립"},
	"action.heal":       {"Heal its network", "네트워크 복구"},
	"show.heartbeats":   {"Heartbeats", "하트비트"},
	"show.metadata":     {"Metadata", "메타데이터"},
	"messages":          {"Messages on the wire", "전송 중인 메시지"},
	"loading":           {"Loading the kafkascope engine…", "kafkascope 엔진을 불러오는 중…"},
	"error.link":        {"This link could not be opened", "이 링크를 열 수 없습니다"},
	"note.early":        {"The engine runs Kafka's real algorithms; docs/fidelity.md lists where it simplifies.", "엔진은 카프카의 실제 알고리즘을 실행합니다. 단순화한 부분은 docs/fidelity.md에 적어 두었습니다."},
	"partitions.more":   {"%d more partitions (scroll)", "파티션 %d개 더 있음(스크롤)"},
	"no.topics":         {"No topics yet. Create one in the terminal, e.g. kafka-topics.sh --create --topic demo --partitions 3 --replication-factor 3", "아직 토픽이 없습니다. 터미널에서 만들어 보세요. 예: kafka-topics.sh --create --topic demo --partitions 3 --replication-factor 3"},
	"marker.crash":      {"crash", "장애"},
	"marker.election":   {"election", "리더 선출"},
	"marker.isr":        {"ISR change", "ISR 변경"},
	"fidelity.latency":  {"1 ms links", "링크 지연 1ms"},
}

// T returns a UI string in the current language.
func (p *Player) T(key string) string {
	t, ok := uiText[key]
	if !ok {
		return key
	}
	if p.Lang == feed.Korean && t[1] != "" {
		return t[1]
	}
	return t[0]
}
