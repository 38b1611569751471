package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestScenarioReadsAt1280x800 plays scenario 11 (the KRaft quorum: seven
// steps of five to eleven lines each, a killed controller) in a 1280×800
// window with the Quorum & metadata log tab open, the tallest of the side
// column's panels: at every step the narration is wholly in view without
// scrolling inside the story, the tabs stay in view under it, and so does
// the Quorum tab's panel: its title and its first voter's row (or, while
// the quorum has no leader, its banner saying so), not below the fold
// under a story that left it a line; a story with more below its text
// (the step's commands) fades there; and no line of a partition row's
// first column (the red "leader 3 is down" of steps 3 and 6 included) runs
// under the first broker's lane.
func TestScenarioReadsAt1280x800(t *testing.T) {
	requireChromium(t)
	srv := newLayoutServer(t)
	b := startBrowser(t)
	tab := b.root
	openAt(t, tab, srv.URL+"/#lang=en&scenario=11-kraft&step=0", 1280, 800)
	installLayoutJS(t, tab)
	waitFor(t, tab, `document.getElementById("story-next").getAttribute("aria-disabled") === "false"`)
	clickID(t, tab, "tab-kraft")
	waitFor(t, tab, `document.getElementById("quorum-table") !== null`)
	const steps = 7
	for i := 1; i <= steps; i++ {
		waitFor(t, tab, fmt.Sprintf(`document.getElementById("story-step").textContent === "Step %d of %d"`, i, steps))
		waitFor(t, tab, `document.getElementById("story-next").getAttribute("aria-disabled") === "false"`)
		if got := layoutProblems(t, tab,
			`wholeIn(window, "#story-text", ".story-body")`,
			`document.querySelector(".story-body").scrollTop > 0 ? "the story's text is scrolled" : ""`,
			`fadeShown(window, ".story-body")`,
			`inView(window, "#tab-kraft")`,
			`inView(window, "#quorum .panel-title")`,
			`inView(window, document.getElementById("quorum-banner") ? "#quorum-banner" : "#quorum-table tbody tr")`,
			`inView(window, "#story-next")`,
			`rowLabelsClear(window)`,
		); got != "" {
			t.Errorf("step %d: %s", i, strings.ReplaceAll(got, "\n", "\n\t"))
			shot(t, tab, fmt.Sprintf("scenario11-1280x800-step%d.png", i))
		}
		if i < steps {
			clickID(t, tab, "story-next")
		}
	}
}
