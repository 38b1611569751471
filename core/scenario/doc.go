// Package scenario holds kafkascope's built-in scenarios: narrated
// transcripts (scenarios/*.txt, embedded in the binary) that teach one
// situation each, in English and Korean. The browser's gallery lists them;
// make test checks every one.
//
// The page's engine (make wasm) embeds copies without the commands'
// expected output and the "## state: " claims, which only the checks read:
// there a Scenario's Source is that copy, and its commands' Expected and
// its steps' State are empty (scripts/pagescenarios).
//
// The package only lists and parses (core/transcript); running a scenario
// is the console's job (console.RunTranscript).
package scenario
