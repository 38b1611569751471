// Package release names the Kafka releases a cluster can be created as
// (`cluster create --version V`) and what each one decides that the
// engine reads: its metadata.version and the feature levels a freshly
// formatted cluster finalizes (what `kafka-storage.sh format
// --release-version` writes and `kafka-features.sh describe` prints).
//
// A release the engine cannot run faithfully yet is still known here, with
// the reason it is refused, so that asking for it gets a clear answer
// instead of a 3.8 cluster under another name. Version-dependent rules
// elsewhere read Version.AtLeast next to a comment citing the KIP or
// commit that changed the behaviour, never a fork of a package.
package release
