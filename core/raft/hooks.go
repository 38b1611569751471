package raft

// testHooks plant known bugs, so the tests can show that each safety
// checker fails when it should. Production configs never set them (the
// field is unexported and nil).
type testHooks struct {
	// grantAnyVote: a voter that already voted or follows a leader in the
	// epoch grants another candidate whose log is up to date: two votes in
	// one epoch, hence possibly two leaders.
	grantAnyVote bool
	// skipFlush: neither the leader nor voting followers fsync appended
	// entries, so a power loss can erase acknowledged, committed entries.
	skipFlush bool
	// deliverUncommitted: listeners receive entries up to the log end
	// offset instead of the high watermark.
	deliverUncommitted bool
}
