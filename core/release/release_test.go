package release

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Version{"4.3": {4, 3}, "3.8.0": {3, 8}, "2.8.2": {2, 8}, "10.0": {10, 0}} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "4", "4.", ".3", "4.3.0.1", "v4.3", "4.03", "4.-1", "4.3-IV0", "four.three", "100.0"} {
		if v, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, v)
		}
	}
}

func TestAtLeast(t *testing.T) {
	v := Version{4, 1}
	for _, c := range []struct {
		major, minor int
		want         bool
	}{{4, 1, true}, {4, 0, true}, {3, 9, true}, {4, 2, false}, {5, 0, false}} {
		if got := v.AtLeast(c.major, c.minor); got != c.want {
			t.Errorf("4.1.AtLeast(%d, %d) = %v", c.major, c.minor, got)
		}
	}
}

// TestLookup: the default runs; every other known line is either runnable
// with a metadata.version or refused with a reason; an unknown line's
// error names the known ones.
func TestLookup(t *testing.T) {
	r, err := Lookup(Default)
	if err != nil || r.MetadataVersion == "" || r.MetadataLevel <= 0 {
		t.Fatalf("Lookup(Default) = %+v, %v", r, err)
	}
	for i, r := range Known() {
		if i > 0 && !r.Version.AtLeast(Known()[i-1].Version.Major, Known()[i-1].Version.Minor+1) {
			t.Errorf("Known() out of order at %v", r.Version)
		}
		_, err := Lookup(r.Version)
		if (err != nil) != (r.Refused != "") {
			t.Errorf("Lookup(%v): %v, refused %q", r.Version, err, r.Refused)
		}
		if err != nil && !strings.Contains(err.Error(), r.Refused) {
			t.Errorf("Lookup(%v): %q does not say why", r.Version, err)
		}
		// A KRaft release has a metadata.version; a ZooKeeper-era one
		// (before 3.0, KIP-500) none.
		if r.Refused == "" && (r.MetadataVersion == "" || r.MetadataLevel <= 0) != r.ZooKeeper {
			t.Errorf("%v: metadata.version %q level %d, ZooKeeper era %v", r.Version, r.MetadataVersion, r.MetadataLevel, r.ZooKeeper)
		}
		if r.ZooKeeper == r.Version.AtLeast(3, 0) {
			t.Errorf("%v: ZooKeeper era %v", r.Version, r.ZooKeeper)
		}
		// A release with features supports and finalizes its own
		// metadata.version, and finalizes every feature within its range.
		for _, f := range r.Features {
			if f.Name == MetadataVersionFeature && (f.MaxLevel != r.MetadataLevel || f.Default != r.MetadataLevel) {
				t.Errorf("%v: metadata.version feature %+v, release level %d", r.Version, f, r.MetadataLevel)
			}
			if f.Default < f.MinLevel && f.Default != 0 || f.Default > f.MaxLevel {
				t.Errorf("%v: %s finalizes %d outside %d-%d", r.Version, f.Name, f.Default, f.MinLevel, f.MaxLevel)
			}
		}
		if r.Refused == "" && r.FeatureDefault(MetadataVersionFeature) != r.MetadataLevel {
			t.Errorf("%v runs without metadata.version among its features", r.Version)
		}
	}
	_, err = Lookup(Version{5, 0})
	if err == nil || !strings.Contains(err.Error(), "known: 2.8, 3.8, 4.1, 4.3") {
		t.Errorf("Lookup(5.0): %v", err)
	}
}

func TestLevelString(t *testing.T) {
	for _, c := range []struct {
		feature string
		level   int16
		want    string
	}{{"metadata.version", 20, "3.8-IV0"}, {"metadata.version", 1, "3.0-IV1"}, {"metadata.version", 30, "4.3-IV0"},
		{"metadata.version", 0, "UNKNOWN 0"}, {"metadata.version", 31, "UNKNOWN 31"}, {"group.version", 1, "1"}} {
		if got := LevelString(c.feature, c.level); got != c.want {
			t.Errorf("LevelString(%s, %d) = %q, want %q", c.feature, c.level, got, c.want)
		}
	}
	// Every release's own metadata.version has the name the table gives it.
	for _, r := range Known() {
		if r.MetadataLevel > 0 && LevelString(MetadataVersionFeature, r.MetadataLevel) != r.MetadataVersion {
			t.Errorf("%v: level %d is %s, the release says %s", r.Version, r.MetadataLevel, LevelString(MetadataVersionFeature, r.MetadataLevel), r.MetadataVersion)
		}
	}
}

// Runnable is Parse then Lookup: a --version names a release the engine
// runs, or says why not.
func TestRunnable(t *testing.T) {
	if v, err := Runnable("4.3.0"); err != nil || v != (Version{Major: 4, Minor: 3}) {
		t.Errorf("4.3.0: %v, %v", v, err)
	}
	if v, err := Runnable("2.8.2"); err != nil || v != (Version{Major: 2, Minor: 8}) {
		t.Errorf("2.8.2: %v, %v", v, err)
	}
	for in, want := range map[string]string{
		"x":   `"x" is not a Kafka version`,
		"9.9": "Kafka 9.9 is not a release kafkascope knows",
		"2.7": "Kafka 2.7 is not a release kafkascope knows",
	} {
		if _, err := Runnable(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
