package broker

import (
	"testing"

	"kafkascope/core/metadata"
)

// TestReplicaFetchConfFollowsConfigChanges: the fetcher's settings are
// cached (replicaFetchConf), and every way a broker config can change
// reaches them: a cluster default set, a per-broker value over it, the
// per-broker value deleted, and the broker's image replaced by a new one
// (a snapshot load, a restart); a clone with the same configs keeps it.
func TestReplicaFetchConfFollowsConfigChanges(t *testing.T) {
	h := newHarness(t, []int32{1, 2}, []int32{1, 2}, 1, 0, nil)
	b := h.b
	set := func(broker, name string, value *string) {
		h.record(&metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: broker, Name: name, Value: value})
	}
	check := func(what string) {
		t.Helper()
		want := fetchConf{
			waitMaxMs:         int32(b.conf().BrokerInt("replica.fetch.wait.max.ms")),
			minBytes:          int32(b.conf().BrokerInt("replica.fetch.min.bytes")),
			responseMaxBytes:  int32(b.conf().BrokerInt("replica.fetch.response.max.bytes")),
			partitionMaxBytes: int32(b.conf().BrokerInt("replica.fetch.max.bytes")),
		}
		if got := b.replicaFetchConf(); got != want {
			t.Fatalf("%s: replicaFetchConf = %+v, the configs say %+v", what, got, want)
		}
		if got := b.confInt("replica.fetch.max.bytes"); got != int64(want.partitionMaxBytes) {
			t.Fatalf("%s: confInt = %d, the configs say %d", what, got, want.partitionMaxBytes)
		}
	}
	v := func(s string) *string { return &s }
	check("defaults")
	if b.replicaFetchConf().partitionMaxBytes != 1048576 {
		t.Fatalf("default replica.fetch.max.bytes = %d", b.replicaFetchConf().partitionMaxBytes)
	}
	set("", "replica.fetch.max.bytes", v("5000"))
	check("cluster default set")
	set("1", "replica.fetch.max.bytes", v("7000"))
	set("1", "replica.fetch.wait.max.ms", v("123"))
	check("per-broker value set")
	if got := b.replicaFetchConf(); got.partitionMaxBytes != 7000 || got.waitMaxMs != 123 {
		t.Fatalf("per-broker values not seen: %+v", got)
	}
	set("1", "replica.fetch.max.bytes", nil)
	check("per-broker value deleted")
	if got := b.replicaFetchConf().partitionMaxBytes; got != 5000 {
		t.Fatalf("after the per-broker delete: %d, want the cluster default 5000", got)
	}
	set("2", "replica.fetch.min.bytes", v("99"))
	check("another broker's value set")
	// The image copies a broker publishes share the configs' stamp: the
	// cache outlives them (an idle broker publishes twice a second).
	kept := len(b.confInts.values)
	b.image = b.image.Clone()
	if b.confCache(); len(b.confInts.values) != kept || kept == 0 {
		t.Fatalf("a clone of the image with the same configs emptied the cache (%d values, %d before)", len(b.confInts.values), kept)
	}
	check("image cloned")
	// A new image (as a snapshot load gives the broker) has a stamp of
	// its own: the cache is read again.
	img := metadata.NewImage()
	b.image = img
	check("image replaced")
	if got := b.replicaFetchConf().partitionMaxBytes; got != 1048576 {
		t.Fatalf("after the image was replaced: %d, want the default", got)
	}
}
