// Package player is the browser app's state and behaviour, in plain Go so it
// runs and is tested natively: a rewindable session (core/timeline) played
// at a chosen speed, the scenario player (narrated steps with Back/Next and
// what each step changed), broker actions from clicks, the terminal's
// completion, the URL state (share links, embed mode, language), a
// simulator run played from its #sim= link (simrun.go) with the gallery's
// failing seeds (simfindings.go), and the UI strings in English and Korean.
//
// The Vugu components in ui/ draw from a Player and call its methods; wasm/
// feeds it animation frames and the URL. The package never touches the
// browser and holds no Kafka logic.
package player
