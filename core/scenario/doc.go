// Package scenario holds kafkascope's built-in scenarios: narrated
// transcripts (scenarios/*.txt, embedded in the binary) that teach one
// situation each, in English and Korean. The browser's gallery lists them;
// make test checks every one.
//
// The package only lists and parses; running a scenario is the console's job.
package scenario
