// Package transcript reads and writes kafkascope's transcripts: a terminal
// session written down with its narration, which is at once a built-in
// scenario (core/scenario), a golden test (core/console/testdata, make
// transcripts) and a lesson the page plays step by step. Line by line:
//
//	# title: T, # title.ko: T  the title in English and in Korean (header)
//	# text                     a comment: in the header, and between a
//	                           step's narration and its first command
//	## text                    a step's narration: "## " lines in a row
//	                           are one step's paragraph
//	## ko: text                the step's narration in Korean
//	## state: claims           facts about the cluster when the step's last
//	                           command has finished (view.CheckClaims)
//	$ command                  a command line
//	> line                     a line of its standard input (">" alone: an
//	                           empty line), before its output
//	anything else              the command's expected output
//
// Expected output matches actual output line by line (MatchOutput):
// trailing blanks and trailing blank lines do not count, "{{*}}" in a line
// matches any run of characters, and a line "{{...}}" any number of lines.
//
// Invariants: what Parse accepts, Render writes back as text that parses
// to the same title, narration, commands, input and expected output
// (FuzzParseTranscript); Render with actual outputs changes only commands'
// output lines, never narration, claims, comments or blank lines between
// steps. The format knows nothing of what runs it: Run drives any Shell
// (a console.Session) and checks claims with the function its caller
// passes, so the package depends on no engine package.
package transcript
