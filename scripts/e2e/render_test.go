package e2e

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestClickDrawsInTheNextFrame clicks the story's Next and checks when the
// page shows it: not inside the click's own task (a render there was a
// second render before the same paint: the frame that plays the step's
// first events renders again, and each render's changes were laid out on
// their own), and by the next animation frame, before the browser paints
// (nothing the click changed may be left undrawn).
func TestClickDrawsInTheNextFrame(t *testing.T) {
	tab := openFirstScenario(t)
	// The Go handler runs inside the click's dispatch; a listener on the
	// window hears the click after it. The page's own frame callback was
	// asked for before this one, so it runs first in the next frame.
	const js = `new Promise((resolve) => {
  const story = () => document.getElementById("story").outerHTML;
  const before = story();
  let inTask = "";
  window.addEventListener("click", () => { inTask = story(); }, { once: true });
  document.getElementById("story-next").click();
  requestAnimationFrame(() => resolve(JSON.stringify({ drawnInTask: inTask !== before, drawnByFrame: story() !== before })));
})`
	out, err := chromedp.Run(tab, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ DrawnInTask, DrawnByFrame bool }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.DrawnInTask {
		t.Errorf("the click was drawn inside its own task: the frame that follows draws again before the same paint")
	}
	if !got.DrawnByFrame {
		t.Errorf("the next animation frame did not draw the click: the page shows the story as it was before Next")
	}
}

// TestControlsFollowThePlayer checks the properties the timeline asserts
// on every render (:.value, ui/patch): once the user has moved the
// scrubber, only its value property moves it (the value attribute no
// longer does), so after a seek back it must show the moment the seek
// landed on (not where it was dragged), and after a step forward the new
// moment; and the speed selector shows the player's speed.
func TestControlsFollowThePlayer(t *testing.T) {
	tab := openFirstScenario(t)
	if got := evalString(tab, `document.getElementById("speed").value`); got != "1" {
		t.Errorf("the speed selector shows %q at load, want the player's 1", got)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`(() => {
		const s = document.getElementById("speed");
		s.value = "5";
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return true; })()`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tab, `document.getElementById("speed").value === "5"`)
	// Play the first step, then drag the scrubber back to the start.
	clickCSS(t, tab, "#story-next")
	waitFor(t, tab, `Number(document.getElementById("scrubber").max) > 0`)
	// The step has played when Next works again, past its cluster create
	// (which ends 2.068 s in: the first moment a seek can land on).
	waitFor(t, tab, `document.getElementById("story-next").getAttribute("aria-disabled") === "false" && !document.querySelector(".timebar").dataset.seeking && Number(document.getElementById("scrubber").value) > 2100`)
	played := evalString(tab, `document.getElementById("scrubber").value`)
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`(() => {
		const s = document.getElementById("scrubber");
		s.value = "0";
		s.dispatchEvent(new Event("input", {bubbles: true}));
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return true; })()`)); err != nil {
		t.Fatal(err)
	}
	// The seek lands on the first moment there is, where the cluster
	// create ended (not 0): the scrubber shows it, whatever the user
	// dragged it to.
	landed := `!document.querySelector(".timebar").dataset.seeking && Number(document.getElementById("scrubber").value) > 0 && Number(document.getElementById("scrubber").value) < ` + played
	waitFor(t, tab, landed)
	start := evalString(tab, `document.getElementById("scrubber").value`)
	clickCSS(t, tab, "#skip-idle")
	waitFor(t, tab, `document.getElementById("scrubber").value !== "`+start+`"`)
}

// openFirstScenario opens scenario 1's first step in a 1280x800 tab and
// waits until its Next button works.
func openFirstScenario(t *testing.T) context.Context {
	t.Helper()
	requireChromium(t)
	srv := newLayoutServer(t)
	b := startBrowser(t)
	tab := b.root
	openAt(t, tab, srv.URL+"/#lang=en&scenario=01-replication-basics&step=0", 1280, 800)
	waitFor(t, tab, `document.getElementById("story-next").getAttribute("aria-disabled") === "false"`)
	return tab
}
