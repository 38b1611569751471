package console

import (
	"fmt"
	"slices"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// featureUpdate is FeatureCommand's handleUpgrade, handleDowngrade and
// handleDisable, then update: the levels asked for, in the order of the
// tool's HashMap (which the admin client's request keeps), one
// updateFeatures call, a line per feature in name order (the TreeMap of
// outcomes), and, when any failed, "N out of M operation(s) failed." as
// the TerseException mainNoExit prints. Every failure before the call
// (TerseException or RuntimeException) prints its message alone and ends
// the tool with status 1.
func featureUpdate(env *sim.Env, t *toolRun, admin *client.Admin, sub *javacli.Parser, v *javacli.Namespace, op string) {
	rel := t.s.cluster.Release()
	fail := func(msg string) {
		t.println(msg)
		t.finish(1)
	}
	upgradeType := protocol.UpgradeTypeUpgrade
	if op != "upgrade" {
		upgradeType = protocol.UpgradeTypeSafeDowngrade
		if v.Given(sub.Arg("--unsafe")) {
			upgradeType = protocol.UpgradeTypeUnsafeDowngrade
		}
	}
	var names []string // the HashMap's insertion order
	levels := map[string]int16{}
	put := func(name string, level int16) bool {
		_, had := levels[name]
		if !had {
			names = append(names, name)
		}
		levels[name] = level
		return had
	}
	var features []string
	if a := sub.Arg("--feature"); v.Given(a) {
		features = v.List(a)
	}
	if op == "disable" {
		for _, f := range features {
			if put(f, 0) {
				fail("Feature " + f + " was specified more than once.")
				return
			}
		}
	} else {
		metadataArg := sub.Arg("--metadata")
		var releaseArg *javacli.Argument
		if rel.Version.AtLeast(4, 0) {
			releaseArg = sub.Arg("--release-version")
		}
		// metadataLevel is MetadataVersion.fromVersionString as each
		// release's tool calls it, with the message it prints.
		metadataLevel := func(s string) (int16, error) {
			if rel.Version.AtLeast(4, 3) {
				return rel.MetadataLevelOf(s)
			}
			return rel.ToolMetadataLevel(s)
		}
		if releaseArg != nil && v.Given(releaseArg) {
			if v.Given(metadataArg) || features != nil {
				fail("Can not specify `release-version` with other feature flags.")
				return
			}
			mv, err := metadataLevel(v.Str(releaseArg))
			if err != nil {
				fail(err.Error())
				return
			}
			put(release.MetadataVersionFeature, mv)
			for _, f := range release.DefaultLevels(mv) {
				// An upgrade does not ask for a feature at level 0.
				if upgradeType != protocol.UpgradeTypeUpgrade || f.Default > 0 {
					put(f.Name, f.Default)
				}
			}
		} else {
			if v.Given(metadataArg) {
				if rel.Version.AtLeast(4, 0) {
					t.println(" `metadata` flag is deprecated and may be removed in a future release.")
				}
				mv, err := metadataLevel(v.Str(metadataArg))
				if err != nil {
					fail(err.Error())
					return
				}
				put(release.MetadataVersionFeature, mv)
			}
			for _, f := range features {
				name, level, msg := parseNameAndLevel(f)
				if msg != "" {
					fail(msg)
					return
				}
				if put(name, level) {
					fail("Feature " + name + " was specified more than once.")
					return
				}
			}
		}
	}
	if len(names) == 0 {
		fail("You must specify at least one feature to " + op)
		return
	}
	dryRun := v.Given(sub.Arg("--dry-run"))
	var updates []client.FeatureUpdate
	for _, n := range jdk.HashSetOrder(names) {
		updates = append(updates, client.FeatureUpdate{Name: n, Level: levels[n], UpgradeType: upgradeType})
	}
	// A 3.8 client speaks UpdateFeatures up to v1; 4.x's v2.
	version := int16(2)
	if !rel.Version.AtLeast(4, 0) {
		version = 1
	}
	admin.UpdateFeatures(env, updates, dryRun, version, func(env *sim.Env, errs map[string]*client.Error) {
		sorted := slices.Clone(names)
		slices.Sort(sorted)
		failures := 0
		for _, n := range sorted {
			if err := errs[n]; err != nil {
				helper := "Could not "
				if dryRun {
					helper = "Can not "
				}
				what := fmt.Sprintf("%s %s to %d", op, n, levels[n])
				if op == "disable" {
					what = "disable " + n
				}
				t.println(helper + what + ". " + err.Message)
				failures++
				continue
			}
			verb := " was "
			if dryRun {
				verb = " can be "
			}
			what := fmt.Sprintf("%sd to %d.", op, levels[n])
			if op == "disable" {
				what = "disabled."
			}
			t.println(n + verb + what)
		}
		if failures > 0 {
			fail(fmt.Sprintf("%d out of %d operation(s) failed.", failures, len(names)))
			return
		}
		t.finish(0)
	})
}

// parseNameAndLevel is FeatureCommand.parseNameAndLevel: feature=level,
// both trimmed, the level a Java short; msg is the RuntimeException's.
func parseNameAndLevel(s string) (string, int16, string) {
	i := strings.Index(s, "=")
	if i < 0 {
		return "", 0, "Can't parse feature=level string " + s + ": equals sign not found."
	}
	name, text := jdk.Trim(s[:i]), jdk.Trim(s[i+1:])
	level, ok := jdk.ParseInt(text, 16)
	if !ok {
		return "", 0, "Can't parse feature=level string " + s + ": unable to parse " + text + " as a short."
	}
	return name, int16(level), ""
}
