// Package player is the browser app's state and behaviour, in plain Go so it
// runs and is tested natively.
//
// A Player shows one Mode (mode.go) at a time, of two types:
//
//   - Session (session.go): the user's own session, a rewindable console
//     (core/timeline) played at a chosen speed, with broker actions from
//     clicks, the frames' budgets and deadlines (framedeadline.go,
//     pace.go), and perhaps a built-in scenario's narrated steps with
//     Back/Next and what each step changed (scenario.go);
//   - SimRun (simrun.go): a fault-simulator run replayed from its #sim=
//     link, which takes no commands and seeks by replaying its seed, with
//     the gallery's failing seeds (simfindings.go).
//
// The Player embeds its Mode, so the page calls the same methods whichever
// is shown, and never asks which: the Player keeps what both share (speed,
// pause, language, the error shown, the host's frame budgets, the
// snapshot of the cluster) and each mode does the rest its own way. Boot,
// OpenScenario and OpenSim, and `cluster create` typed in a simulator run,
// replace the mode. Beside these: the URL state (share links, embed mode,
// language; url.go), what the page reads of the cluster as core/view
// values (views.go), and the UI strings in English and Korean.
//
// The Vugu components in ui/ draw from a Player and call its methods; wasm/
// feeds it animation frames and the URL. The package never touches the
// browser and holds no Kafka logic.
package player
