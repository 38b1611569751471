package scenario

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"kafkascope/core/console"
	"kafkascope/core/transcript"
	"kafkascope/core/view"
)

// Every built-in scenario is narrated in both languages, titled in both,
// reproduces its transcript exactly, and every "## state: " claim its
// narration makes reads as a claim and holds when its step ends.
func TestScenariosAreBilingualAndPass(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 4 {
		t.Fatalf("only %d scenarios", len(all))
	}
	for _, s := range all {
		tr := s.Transcript
		if tr.Title == "" || tr.TitleKo == "" {
			t.Errorf("%s: missing title or title.ko", s.ID)
		}
		for i, st := range tr.Steps {
			if (st.Text == "") != (st.TextKo == "") {
				t.Errorf("%s: step %d is narrated in only one language", s.ID, i+1)
			}
		}
		_, bad, states := console.RunTranscript(tr, view.CheckClaims)
		if len(bad) > 0 {
			t.Errorf("%s: %d command(s) differ, first at line %d: $ %s", s.ID, len(bad), bad[0].Cmd.Line, bad[0].Cmd.Cmd)
		}
		for _, f := range states {
			t.Errorf("%s.txt:%d: ## state: %s\n  does not hold when the step ends: %v", s.ID, f.Claim.Line, f.Claim.Text, f.Err)
		}
	}
}

// namesState matches narration that speaks of what the picture shows and a
// claim can pin: a partition's leader or ISR, the controller, the high
// watermark. (A consumer group's leader is a consumer; it is taken out
// first, see consumerGroupLeader.)
var (
	namesState          = regexp.MustCompile(`(?i:\bleaders?\b|\bleads?\b|\bled\b|\bleaderships?\b|controller|high watermark|in-sync)|\bISRs?\b|\bHW\b`)
	consumerGroupLeader = regexp.MustCompile(`(?i)\bgroup leader\b`)
)

// unpinnable lists the steps whose narration names a leader, the ISR, the
// controller or the high watermark although nothing it says can be
// checked when the step ends, and why.
var unpinnable = map[string]string{
	"22-rebalance step 1": "it says which partition's leader will coordinate the group, but __consumer_offsets does not exist until a consumer asks for its coordinator in step 2, which pins it",
}

// A step whose narration names a leader, the ISR, the controller or the
// high watermark pins at least one claim about the picture at its end
// ("## state: "), so that narration and picture cannot drift apart
// unnoticed. (That the claims hold is TestScenariosAreBilingualAndPass's.)
func TestNarrationAboutStateIsPinned(t *testing.T) {
	requirePinned(t, "unpinnable",
		func(text string) []string {
			return namesState.FindAllString(consumerGroupLeader.ReplaceAllString(text, ""), -1)
		},
		func(claims []transcript.Claim) bool { return len(claims) > 0 },
		unpinnable, "pins no claim: add a \"## state: \" line after its \"## ko: \" line")
}

// requirePinned fails every step of every scenario whose English
// narration talks of something (talk finds the words) without a claim
// pinned finds, unless exceptions lists the step (and fails exceptions
// that no step needs any more: they would hide a regression).
func requirePinned(t *testing.T, listName string, talk func(string) []string, pinned func([]transcript.Claim) bool, exceptions map[string]string, missing string) {
	t.Helper()
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, s := range all {
		for i, st := range s.Transcript.Steps {
			words := talk(st.Text)
			if len(words) == 0 || pinned(st.State) {
				continue
			}
			key := fmt.Sprintf("%s step %d", s.ID, i+1)
			if _, ok := exceptions[key]; ok {
				used[key] = true
				continue
			}
			t.Errorf("%s: the narration speaks of %q but %s (forms in core/view/claims.go)", key, words, missing)
		}
	}
	for key := range exceptions {
		if !used[key] {
			t.Errorf("%s lists %q, which no longer needs it: take it out", listName, key)
		}
	}
}

// The matcher finds what it should and leaves consumer group leaders alone.
func TestNamesState(t *testing.T) {
	for text, want := range map[string]bool{
		"Broker 2 leads all ten partitions.":                          true,
		"The controller fences it.":                                   true,
		"The ISR shrinks to the leader alone.":                        true,
		"the HW is 2":                                                 true,
		"Consumers only ever see records below the high watermark.":   true,
		"every in-sync replica has it":                                true,
		"A preferred election hands the leaderships back.":            true,
		"the group leader (the member that joined first) assigns":     false,
		"min.insync.replicas=2 and a retention of two minutes":        false,
		"Records with three different keys land on three partitions.": false,
	} {
		got := namesState.MatchString(consumerGroupLeader.ReplaceAllString(text, ""))
		if got != want {
			t.Errorf("%q: names state = %v, want %v", text, got, want)
		}
	}
}

// talksOfGroups matches narration about a consumer group's state that a
// group, owner or committed claim can pin: its members, leader,
// coordinator, generation, rebalances, who owns which partition, and its
// committed offsets. Dotted configuration names are taken out first
// (configNames), so auto.leader.rebalance.enable or
// metadata.max.idle.interval.ms say nothing about a group. "member" counts
// only next to "group" (groupMember): an ISR has members too.
var (
	talksOfGroups = regexp.MustCompile(`(?i:\bconsumer groups?\b|\bgroup leader\b|\bcoordinator\b|\brebalanc\w*|\bcommitted offsets?\b|\bcommits\b|\bgeneration\b|\bassignor\b|\bowns\b|\bidle\b|--members)|\b(?:Stable|Empty)\b|CURRENT-OFFSET`)
	groupMember   = regexp.MustCompile(`(?i)\bmembers?\b`)
	mentionsGroup = regexp.MustCompile(`(?i)\bgroups?\b`)
	configNames   = regexp.MustCompile(`\b[a-z]+(?:\.[a-z]+)+\b`)
)

// groupTalk returns what a step's narration says about a consumer group.
func groupTalk(text string) []string {
	text = configNames.ReplaceAllString(text, "")
	found := talksOfGroups.FindAllString(text, -1)
	if mentionsGroup.MatchString(text) {
		found = append(found, groupMember.FindAllString(text, -1)...)
	}
	return found
}

// groupUnpinnable lists the steps whose narration speaks of a consumer
// group although no group claim can be checked when the step ends, and why.
var groupUnpinnable = map[string]string{
	"20-consumer-groups step 1": "the four consumers have only been started when the step ends (no time passes), so no coordinator holds the group yet; step 2 pins the group they form",
	"22-rebalance step 1":       "the two consumers have only been started when the step ends, and __consumer_offsets does not exist yet; step 2 pins the group and its coordinator",
}

// A step whose narration speaks of a consumer group's members, leader,
// coordinator, rebalances, assignment or committed offsets pins at least
// one group, owner or committed claim at its end.
func TestNarrationAboutGroupsIsPinned(t *testing.T) {
	requirePinned(t, "groupUnpinnable", groupTalk, pinsGroup, groupUnpinnable, "pins no group, owner or committed claim")
}

// pinsGroup reports whether a step's claims say something about a group.
func pinsGroup(claims []transcript.Claim) bool {
	for _, c := range claims {
		for _, one := range strings.Split(c.Text, ";") {
			f := strings.Fields(one)
			if len(f) > 0 && (f[0] == "group" || f[0] == "owner" || f[0] == "committed") {
				return true
			}
		}
	}
	return false
}

// The matcher finds talk of groups and leaves replication's words alone.
func TestGroupTalk(t *testing.T) {
	for text, want := range map[string]bool{
		"the group leader (the member that joined first) assigns":                   true,
		"The committed offset is 2: the offset of the next record to read":          true,
		"the group is Stable with four members":                                     true,
		"While the group has an active member its offsets cannot be reset":          true,
		"the coordinator rebalances the group into generation 2":                    true,
		"each is printed by the one member that owns its partition":                 true,
		"search-4 has none and stays idle":                                          true,
		"Only ISR members may become leader":                                        false,
		"the ISR keeps the dead broker, the last member that had everything":        false,
		"runs preferred elections for them (auto.leader.rebalance.enable=true)":     false,
		"keep-alive NoOpRecord (metadata.max.idle.interval.ms, by default one":      false,
		"Message2 counts as committed: the HW is 2":                                 false,
		"on the consumer side (commit offsets only after processing, make it safe)": false,
	} {
		if got := len(groupTalk(text)) > 0; got != want {
			t.Errorf("%q: talks of groups = %v, want %v", text, got, want)
		}
	}
}
