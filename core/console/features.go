package console

import (
	"cmp"
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

// kafka-features.sh runs org.apache.kafka.tools.FeatureCommand (KIP-584),
// parsed with argparse4j through parseArgsOrFail. describe prints one line
// per feature the answering broker supports, sorted by name, with its
// finalized level (0 when not finalized) and the epoch of the metadata the
// broker has applied. upgrade, downgrade and disable send one
// UpdateFeatures request (features_update.go).

const featuresProg = "kafka-features"

// featuresParser is the 3.8 parser; featuresParserFor adds 4.x's
// version-mapping and feature-dependencies sub-commands (FeatureCommand,
// 4.1).
func featuresParser() *javacli.Parser { return featuresParserFor(release.Version{Major: 3, Minor: 8}) }

func featuresParserFor(rel release.Version) *javacli.Parser {
	p := &javacli.Parser{
		Prog:        featuresProg,
		Description: "This tool manages feature flags in Kafka.",
		Args: adminToolArgs("Brokers to connect to, as host:port pairs separated by commas.",
			"Controllers to connect to, as host:port pairs separated by commas (not simulated for this tool)."),
		// 4.3's group is no longer required: version-mapping and
		// feature-dependencies need no cluster (FeatureCommand.execute).
		GroupOptional: rel.AtLeast(4, 3),
	}
	help := javacli.Argument{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"}
	dryRun := func(h string) *javacli.Argument {
		return &javacli.Argument{Flags: []string{"--dry-run"}, Action: javacli.StoreTrue, Help: h}
	}
	feature := func(h string) *javacli.Argument {
		return &javacli.Argument{Flags: []string{"--feature"}, Metavar: "FEATURE", Type: "String", Action: javacli.Append, Help: h}
	}
	unsafe := &javacli.Argument{Flags: []string{"--unsafe"}, Action: javacli.StoreTrue, Help: "Go ahead even where the change may lose metadata for good."}
	describe := []*javacli.Argument{&help}
	if rel.AtLeast(4, 2) {
		describe = append(describe, &javacli.Argument{Flags: []string{"--node-id"}, Metavar: "NODE_ID", Type: "Integer",
			Help: "The node to ask, rather than any broker or controller."})
	}
	p.AddCommand("describe", "Print the cluster's feature flags and their levels.", describe)
	// 4.0 deprecated --metadata and added --release-version, which sets
	// every production feature to its level for that metadata.version.
	releaseVersion := func(h string) []*javacli.Argument {
		if !rel.AtLeast(4, 0) {
			return nil
		}
		return []*javacli.Argument{{Flags: []string{"--release-version"}, Metavar: "RELEASE_VERSION", Type: "String", Help: h}}
	}
	p.AddCommand("upgrade", "Raise the level of feature flags.", slices.Concat([]*javacli.Argument{&help,
		{Flags: []string{"--metadata"}, Metavar: "METADATA", Type: "String", Help: "The metadata.version to upgrade to, such as 3.8-IV0."}},
		releaseVersion("A release, such as 4.1-IV1, whose levels every feature is raised to (see version-mapping)."),
		[]*javacli.Argument{feature("A feature=level to upgrade to, such as metadata.version=20."), dryRun("Check the upgrade without doing it.")}))
	p.AddCommand("downgrade", "Lower the level of feature flags.", slices.Concat([]*javacli.Argument{&help,
		{Flags: []string{"--metadata"}, Metavar: "METADATA", Type: "String", Help: "The metadata.version to downgrade to, such as 3.3-IV3."}},
		releaseVersion("A release, such as 4.0-IV3, whose levels every feature is lowered to (see version-mapping)."),
		[]*javacli.Argument{feature("A feature=level to downgrade to, such as metadata.version=7."), unsafe, dryRun("Check the downgrade without doing it.")}))
	p.AddCommand("disable", "Set feature flags to level 0.", []*javacli.Argument{&help,
		feature("A feature flag to disable."), unsafe, dryRun("Check the change without doing it.")})
	if rel.AtLeast(4, 0) {
		p.AddCommand("version-mapping", "Print the feature levels a metadata.version or release implies.", []*javacli.Argument{&help,
			{Flags: []string{"--release-version"}, Metavar: "RELEASE_VERSION", Type: "String", Help: "The release, such as 4.1-IV1 (default: the latest production one)."}})
		p.AddCommand("feature-dependencies", "Print the features a feature level depends on.", []*javacli.Argument{&help,
			{Flags: []string{"--feature"}, Metavar: "FEATURE", Type: "String", Required: true, Action: javacli.Append, Help: "A feature=level, such as transaction.version=2 (repeatable)."}})
	}
	return p
}

// featuresTool is kafka-features.sh.
func featuresTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	p := featuresParserFor(rel)
	var v *javacli.Namespace
	if rel.AtLeast(4, 3) {
		// 4.3 calls parseArgs and prints any ArgumentParserException as
		// "Command line error: MSG. Type --help for help." on stderr, with
		// no usage and no newline (FeatureCommand.mainNoExit); the help
		// screen ends the tool with status 0.
		var perr *javacli.ParseError
		if v, perr = p.Parse(args); perr != nil {
			if perr.Help {
				t.printLines(perr.Parser.HelpLines())
				t.finish(0)
				return nil
			}
			t.println("Command line error: " + perr.Msg + ". Type --help for help.")
			t.finish(1)
			return nil
		}
	} else {
		var ok bool
		if v, ok = t.parseArgsOrFail(p, args); !ok {
			return nil
		}
	}
	switch cmd := v.Command(); cmd {
	case "version-mapping", "feature-dependencies":
		// Answered from the release's own tables, before any bootstrap
		// is set up (FeatureCommand.execute).
		featureTables(t, p.Command(cmd), v, cmd)
		return nil
	}
	if rel.AtLeast(4, 3) && !v.Given(p.Arg("--bootstrap-server")) && !v.Given(p.Arg("--bootstrap-controller")) {
		// initializeBootstrapProperties' message, rethrown as an
		// ArgumentParserException: mainNoExit adds its own period.
		t.println("Command line error: You must specify either --bootstrap-controller or --bootstrap-server.. Type --help for help.")
		t.finish(1)
		return nil
	}
	props := map[string]string{}
	if cc := p.Arg("--command-config"); v.Given(cc) {
		var exc string
		var ok bool
		if props, exc, ok = t.commandConfigProps(v.Str(cc)); !ok {
			// Utils.loadProps throws NoSuchFileException, whose message
			// (all FeatureCommand prints) is the path.
			t.println(v.Str(cc))
			t.finish(1)
			return nil
		}
		if exc != "" {
			t.catchAll(exc)
			return nil
		}
	}
	cfg, bootstrap, controllers, ok := t.argparseAdmin(p, v, props)
	if !ok {
		return nil
	}
	if controllers {
		t.println("kafka-features: --bootstrap-controller is not simulated for this tool (controllers do not answer ApiVersions here); use --bootstrap-server")
		t.finish(1)
		return nil
	}
	target := client.BrokerOrActiveController()
	if rel.AtLeast(4, 2) && v.Given(p.Command("describe").Arg("--node-id")) {
		// DescribeFeaturesOptions.nodeId (4.2+): checked in handleDescribe,
		// after the admin client exists; the catch-all prints the
		// IllegalArgumentException's message.
		id := v.Num(p.Command("describe").Arg("--node-id"))
		if id < 0 {
			t.println(fmt.Sprintf("Invalid node id %d: must be non-negative.", id))
			t.finish(1)
			return nil
		}
		target = client.BrokerNode(int32(id))
	}
	padded := t.s.cluster.Release().PaddedFeatures
	if cmd := v.Command(); cmd != "describe" {
		return func(host string) sim.Process {
			admin := client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
			return &client.Process{Handlers: []client.Handler{admin}, OnStart: func(env *sim.Env) {
				featureUpdate(env, t, admin, p.Command(cmd), v, cmd)
			}}
		}
	}
	return func(host string) sim.Process {
		admin := client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		describe := func(env *sim.Env) {
			admin.DescribeFeatures(env, target, func(env *sim.Env, f *protocol.ApiVersionsResponse, err *client.Error) {
				if err != nil {
					// FeatureCommand's catch-all prints the
					// ExecutionException's message: its cause.
					t.println(err.Error())
					t.finish(1)
					return
				}
				t.printLines(featureLines(f, padded))
				t.finish(0)
			})
		}
		return &client.Process{Handlers: []client.Handler{admin}, OnStart: describe}
	}
}

// featureTables is handleVersionMapping and handleFeatureDependencies: a
// failure prints its message alone, as FeatureCommand.mainNoExit does.
func featureTables(t *toolRun, p *javacli.Parser, v *javacli.Namespace, cmd string) {
	rel := t.s.cluster.Release()
	fail := func(msg string) {
		t.println(msg)
		t.finish(1)
	}
	if cmd == "version-mapping" {
		given := rel.MetadataVersion // MetadataVersion.LATEST_PRODUCTION
		if a := p.Arg("--release-version"); v.Given(a) {
			given = v.Str(a)
		}
		mv, err := rel.MetadataLevelOf(given)
		if err != nil {
			fail(err.Error())
			return
		}
		t.printLines(release.VersionMapping(mv, given))
		t.finish(0)
		return
	}
	for _, f := range v.List(p.Arg("--feature")) {
		i := strings.Index(f, "=")
		if i < 0 {
			fail("Can't parse feature=level string " + f + ": equals sign not found.")
			return
		}
		name, levelText := strings.TrimSpace(f[:i]), strings.TrimSpace(f[i+1:])
		level, ok := jdk.ParseInt(levelText, 16)
		if !ok {
			fail("Can't parse feature=level string " + f + ": unable to parse " + levelText + " as a short.")
			return
		}
		lines, err := rel.FeatureDependencies(name, int16(level))
		if err != nil {
			fail(err.Error())
			return
		}
		t.printLines(lines)
	}
	t.finish(0)
}

// featureLines is handleDescribe: a line per supported feature, sorted by
// name, tab-separated until Kafka 4.2 and in padded columns from 4.3.
func featureLines(f *protocol.ApiVersionsResponse, padded bool) []string {
	epoch := "-"
	if f.FinalizedFeaturesEpoch >= 0 {
		epoch = fmt.Sprint(f.FinalizedFeaturesEpoch)
	}
	supported := slices.Clone(f.SupportedFeatures)
	slices.SortFunc(supported, func(a, b protocol.SupportedFeature) int { return cmp.Compare(a.Name, b.Name) })
	var lines []string
	for _, s := range supported {
		var level int16
		for _, fin := range f.FinalizedFeatures {
			if fin.Name == s.Name {
				level = fin.MaxLevel
			}
		}
		layout := "Feature: %s\tSupportedMinVersion: %s\tSupportedMaxVersion: %s\tFinalizedVersionLevel: %s\tEpoch: %s"
		if padded {
			layout = "Feature: %-40s  SupportedMinVersion: %-15s  SupportedMaxVersion: %-15s  FinalizedVersionLevel: %-15s  Epoch: %s"
		}
		lines = append(lines, fmt.Sprintf(layout,
			s.Name, release.LevelString(s.Name, s.MinLevel), release.LevelString(s.Name, s.MaxLevel), release.LevelString(s.Name, level), epoch))
	}
	return lines
}
