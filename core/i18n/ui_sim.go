package i18n

// The simulator run's strings (a #sim= link) and the gallery's "What the
// simulator found". init adds them to uiText (a key defined twice panics).
// A slice, unlike a map literal of fewer than 25 entries, is static data,
// not code that assigns each entry.
var uiTextSim = []uiEntry{
	{"sim.banner", [2]string{
		"Simulator run: seed %d, %s. The randomized fault simulator drew this cluster, its workload and its faults from the seed; it is not a session of your own. The terminal shows the fault schedule as it happens and, at the end, what the checkers found. Replay it in the CLI:",
		"시뮬레이터 실행: 시드 %d, %s. 무작위 장애 시뮬레이터가 이 클러스터와 워크로드, 장애를 모두 시드에서 뽑았습니다. 직접 만든 세션이 아닙니다. 터미널에는 장애 일정이 일어나는 대로 나오고, 끝에는 검사기가 찾아낸 것이 나옵니다. CLI에서 다시 실행하기:"}},
	{"sim.banner.embed", [2]string{
		"Simulator run: seed %d, %s. The randomized fault simulator drew this cluster, its workload and its faults from the seed. Open it in kafkascope to follow the fault schedule in its terminal and read what the checkers found, or replay it in the CLI:",
		"시뮬레이터 실행: 시드 %d, %s. 무작위 장애 시뮬레이터가 이 클러스터와 워크로드, 장애를 모두 시드에서 뽑았습니다. kafkascope에서 열면 터미널에서 장애 일정을 따라가고 검사기가 찾아낸 것을 읽을 수 있습니다. CLI에서 다시 실행하기:"}},
	{"sim.opening", [2]string{"Opening the simulator run…", "시뮬레이터 실행을 여는 중…"}},
	{"sim.defaults", [2]string{"default configs", "기본 설정"}},
	{"sim.refused", [2]string{
		"kafkascope: this is a simulator run and it takes no commands (cluster create starts a cluster of your own).",
		"kafkascope: 시뮬레이터 실행 중에는 명령을 받지 않습니다(cluster create를 입력하면 직접 쓰는 클러스터가 시작됩니다)."}},
	{"sim.replay", [2]string{"Replay it in the CLI: %s", "CLI에서 다시 실행하기: %s"}},
	{"sim.noactions", [2]string{"A simulator run takes no broker actions: its faults come from the seed.", "시뮬레이터 실행에서는 브로커를 직접 조작할 수 없습니다. 장애는 시드에서 나옵니다."}},
	{"sim.running", [2]string{"running", "실행 중"}},
	{"sim.replay.button", [2]string{"Replay", "다시 재생"}},
	{"sim.replay.title", [2]string{"The run has ended: play it again from its start", "실행이 끝났습니다. 처음부터 다시 재생합니다"}},
	{"sim.replaying", [2]string{"Replaying the run from its start…", "처음부터 다시 실행하는 중…"}},
	{"sim.failed", [2]string{"the run itself failed", "실행 자체가 실패했습니다"}},
	{"sim.passed", [2]string{"no violations", "위반 없음"}},
	{"sim.violations", [2]string{"%d violation(s), the first: %s", "위반 %d건, 첫 번째: %s"}},
	{"gallery.sim", [2]string{"What the simulator found", "시뮬레이터가 찾아낸 것"}},
	{"gallery.sim.intro", [2]string{
		"Runs of the randomized fault simulator that break a guarantee under a known-unsafe config. Each opens the failing seed's run: watch the faults play out, then read the checkers' verdict in the terminal.",
		"알려진 위험한 설정에서 보장이 깨지는 무작위 장애 시뮬레이터의 실행들입니다. 하나를 고르면 실패하는 시드의 실행이 열립니다. 장애가 벌어지는 것을 지켜본 뒤 터미널에서 검사기의 판정을 읽어 보세요."}},
	{"gallery.sim.seed", [2]string{"seed %d · finds %s", "시드 %d · %s 발견"}},
	{"gallery.sim.see", [2]string{"The same rule, step by step:", "같은 규칙을 단계별로:"}},
}

func init() {
	for _, e := range uiTextSim {
		if _, dup := uiText[e.key]; dup {
			panic("i18n: UI string " + e.key + " defined twice")
		}
		uiText[e.key] = e.text
	}
}

// uiEntry is a UI string under its key, for the lists init adds to uiText.
type uiEntry struct {
	key  string
	text [2]string
}
