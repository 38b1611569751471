package console

import (
	"strings"
	"testing"

	"kafkascope/core/protocol"
)

// quorumArgsGolden is what argparse4j 0.7.0 prints for these command lines
// of MetadataQuorumCommand's 3.8.0 parser (its help texts replaced by
// kafkascope's), recorded by running the library with COLUMNS=80. Each
// case is "=== " and the arguments separated by "|", then the output
// (usage and error on stderr, or the help screen on stdout).
const quorumArgsGolden = `=== 
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: too few arguments
=== --bootstrap-server|x
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: too few arguments
=== describe
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: one  of  the  arguments --bootstrap-server --
bootstrap-controller is required
=== --bootstrap-server|x|--bootstrap-controller|y|describe
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: argument  --bootstrap-controller: not allowed
with argument --bootstrap-server
=== --bootstrap-controller|y|--bootstrap-server|x|describe
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum:  error:  argument  --bootstrap-server:  not  allowed
with argument --bootstrap-controller
=== --bootstrap-server
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error:  argument  --bootstrap-server:  expected  one
argument
=== --bootstrap-server|--status
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error:  argument  --bootstrap-server:  expected  one
argument
=== --bootstrap-server|x|foo
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum:  error:   invalid   choice:   'foo'   (choose   from
'describe')
=== --foo
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: unrecognized arguments: '--foo'
=== --bootstrap-server|x|describe|--foo
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: '--foo'
=== --bootstrap-server|x|describe|--humn
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: '--humn'

Did you mean:
	--help
=== --bootstrap-server|x|describe|--replicaton
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: '--replicaton'

Did you mean:
	--replication
=== --bootstrap-servr|x|describe
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: unrecognized arguments: '--bootstrap-servr'

Did you mean:
	--bootstrap-server
=== --boot|x|describe
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error:  ambiguous  option:  --boot  could  match  --
bootstrap-controller, --bootstrap-server
=== --bootstrap-server|x|describe|--h
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: ambiguous option: --h  could match --help, --
human-readable
=== --bootstrap-server|x|--command-config
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum:  error:  argument   --command-config:  expected  one
argument
=== --bootstrap-server|x|describe|--status|extra
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: 'extra'
=== --bootstrap-server|x|describe|--status=true
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: argument  --status:  ignore implicit argument
'true'
=== --bootstrap-server|x|describe|--status|--bootstrap-server|y
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: '--bootstrap-server'
=== --bootstrap-server|x|describe|-s
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: '-s'
=== --bootstrap-server|x|describex
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error:  invalid  choice:  'describex'  (choose  from
'describe')

Did you mean:
	describe
=== --bootstrap-server|x|-
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: invalid choice: '-' (choose from 'describe')
=== --bootstrap-server|x|describe|-
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: '-'
=== --|describe
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: unrecognized arguments: 'describe'
=== --bootstrap-server|x|describe|--|--status
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: '--status'
=== --bootstrap-server|x|--bootstrap-controller
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: argument  --bootstrap-controller: not allowed
with argument --bootstrap-server
=== describe|--foo
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]
kafka-metadata-quorum: error: unrecognized arguments: '--foo'
=== describe|--status
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: one  of  the  arguments --bootstrap-server --
bootstrap-controller is required
=== --foo|-h
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: unrecognized arguments: '--foo'
=== -h
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...

This tool describes kraft metadata quorum status.

positional arguments:
  {describe}
    describe             Show the KRaft quorum of the metadata log

optional arguments:
  -h, --help             show this help message and exit
  --bootstrap-server BOOTSTRAP_SERVER
                         Brokers  to  connect   to,   as   host:port  pairs
                         separated  by  commas;   a   broker  forwards  the
                         question to the active controller.
  --bootstrap-controller BOOTSTRAP_CONTROLLER
                         Controllers to  connect  to,  as  host:port  pairs
                         separated by commas  (their  controller listeners,
                         e.g. kafka-1:9093).
  --command-config COMMAND_CONFIG
                         A properties file  of  admin  client  settings (in
                         kafkascope: a file written with cat > FILE).
=== -hx
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...

This tool describes kraft metadata quorum status.

positional arguments:
  {describe}
    describe             Show the KRaft quorum of the metadata log

optional arguments:
  -h, --help             show this help message and exit
  --bootstrap-server BOOTSTRAP_SERVER
                         Brokers  to  connect   to,   as   host:port  pairs
                         separated  by  commas;   a   broker  forwards  the
                         question to the active controller.
  --bootstrap-controller BOOTSTRAP_CONTROLLER
                         Controllers to  connect  to,  as  host:port  pairs
                         separated by commas  (their  controller listeners,
                         e.g. kafka-1:9093).
  --command-config COMMAND_CONFIG
                         A properties file  of  admin  client  settings (in
                         kafkascope: a file written with cat > FILE).
=== --help
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...

This tool describes kraft metadata quorum status.

positional arguments:
  {describe}
    describe             Show the KRaft quorum of the metadata log

optional arguments:
  -h, --help             show this help message and exit
  --bootstrap-server BOOTSTRAP_SERVER
                         Brokers  to  connect   to,   as   host:port  pairs
                         separated  by  commas;   a   broker  forwards  the
                         question to the active controller.
  --bootstrap-controller BOOTSTRAP_CONTROLLER
                         Controllers to  connect  to,  as  host:port  pairs
                         separated by commas  (their  controller listeners,
                         e.g. kafka-1:9093).
  --command-config COMMAND_CONFIG
                         A properties file  of  admin  client  settings (in
                         kafkascope: a file written with cat > FILE).
=== --bootstrap-server|x|describe|-h
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]

optional arguments:
  -h, --help             show this help message and exit

Status:
  --status               A summary: the  leader  and  its  epoch,  the high
                         watermark, how far  the  slowest  voter is behind,
                         the voters and the observers.

Replication:
  --replication          One row per replica of  the metadata log, with its
                         log end offset, lag and last fetch
  --human-readable       Show times as how long ago
=== --bootstrap-server|x|describe|-hs
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]

optional arguments:
  -h, --help             show this help message and exit

Status:
  --status               A summary: the  leader  and  its  epoch,  the high
                         watermark, how far  the  slowest  voter is behind,
                         the voters and the observers.

Replication:
  --replication          One row per replica of  the metadata log, with its
                         log end offset, lag and last fetch
  --human-readable       Show times as how long ago
=== --bootstrap-server|x|describe|--status|-h
usage: kafka-metadata-quorum (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             describe [-h] [--status] [--replication]
                             [--human-readable]

optional arguments:
  -h, --help             show this help message and exit

Status:
  --status               A summary: the  leader  and  its  epoch,  the high
                         watermark, how far  the  slowest  voter is behind,
                         the voters and the observers.

Replication:
  --replication          One row per replica of  the metadata log, with its
                         log end offset, lag and last fetch
  --human-readable       Show times as how long ago
=== --bootstrap-server|x|--help|describe
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...

This tool describes kraft metadata quorum status.

positional arguments:
  {describe}
    describe             Show the KRaft quorum of the metadata log

optional arguments:
  -h, --help             show this help message and exit
  --bootstrap-server BOOTSTRAP_SERVER
                         Brokers  to  connect   to,   as   host:port  pairs
                         separated  by  commas;   a   broker  forwards  the
                         question to the active controller.
  --bootstrap-controller BOOTSTRAP_CONTROLLER
                         Controllers to  connect  to,  as  host:port  pairs
                         separated by commas  (their  controller listeners,
                         e.g. kafka-1:9093).
  --command-config COMMAND_CONFIG
                         A properties file  of  admin  client  settings (in
                         kafkascope: a file written with cat > FILE).
=== --bootstrap-server|x|-h=1
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: argument -h/--help:  ignore implicit argument
'1'
=== --bootstrap-server|x|
usage: kafka-metadata-quorum [-h] [--command-config COMMAND_CONFIG]
                             (--bootstrap-server BOOTSTRAP_SERVER |
                             --bootstrap-controller BOOTSTRAP_CONTROLLER)
                             {describe} ...
kafka-metadata-quorum: error: invalid choice: '' (choose from 'describe')

Did you mean:
	describe
`

func TestQuorumArgsMatchArgparse4j(t *testing.T) {
	blocks := strings.Split(quorumArgsGolden, "=== ")[1:]
	if len(blocks) < 30 {
		t.Fatalf("only %d cases", len(blocks))
	}
	for _, b := range blocks {
		lines := strings.Split(strings.TrimRight(b, "\n"), "\n")
		var args []string
		if lines[0] != "" {
			args = strings.Split(lines[0], "|")
		}
		want := lines[1:]
		p := quorumParser()
		_, perr := p.Parse(args)
		var got []string
		switch {
		case perr == nil:
			got = []string{"OK"}
		case perr.Help:
			got = perr.Parser.HelpLines()
		default:
			got = p.ErrorLines(perr)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q:\ngot:\n%s\nwant:\n%s", args, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestQuorumParseValues(t *testing.T) {
	p := quorumParser()
	v, perr := p.Parse([]string{"--bootstrap-s=kafka-1:9092", "desc", "--re", "--hu"})
	if perr != nil {
		t.Fatalf("parse: %+v", perr)
	}
	sub := p.Command("describe")
	if v.Command() != "describe" || v.Str(p.Arg("--bootstrap-server")) != "kafka-1:9092" ||
		!v.Given(sub.Arg("--replication")) || !v.Given(sub.Arg("--human-readable")) || v.Given(sub.Arg("--status")) {
		t.Fatalf("values: command %q, %v", v.Command(), v)
	}
}

func TestQuorumStatusLines(t *testing.T) {
	r := &protocol.DescribeQuorumResponse{LeaderID: 2, LeaderEpoch: 7, HighWatermark: 120,
		CurrentVoters: []protocol.QuorumReplicaState{
			{ReplicaID: 1, LogEndOffset: 118, LastFetchTimestamp: 1000, LastCaughtUpTimestamp: 990},
			{ReplicaID: 2, LogEndOffset: 121, LastFetchTimestamp: 1500, LastCaughtUpTimestamp: 1500},
			{ReplicaID: 3, LogEndOffset: 118, LastFetchTimestamp: 1100, LastCaughtUpTimestamp: 1050},
		},
		Observers: []protocol.QuorumReplicaState{{ReplicaID: 4, LogEndOffset: 121}, {ReplicaID: 5, LogEndOffset: -1, LastFetchTimestamp: -1, LastCaughtUpTimestamp: -1}},
	}
	lines, exc := quorumStatusLines("abc", r, nil)
	want := []string{
		"ClusterId:              abc",
		"LeaderId:               2",
		"LeaderEpoch:            7",
		"HighWatermark:          120",
		"MaxFollowerLag:         3",   // 121 - 118, the first slowest voter (1)
		"MaxFollowerLagTimeMs:   510", // 1500 - 990
		"CurrentVoters:          [1,2,3]",
		"CurrentObservers:       [4,5]",
	}
	if exc != "" || strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q (%s)", lines, exc)
	}
	// The leader is the slowest voter: 0; a voter that never caught up: -1.
	r.CurrentVoters[0].LogEndOffset, r.CurrentVoters[2].LogEndOffset = 121, 121
	if lines, _ = quorumStatusLines("abc", r, nil); lines[5] != "MaxFollowerLagTimeMs:   510" {
		t.Fatalf("equal ends, first voter wins: %q", lines[5])
	}
	r.CurrentVoters[0].LogEndOffset = 125
	if lines, _ = quorumStatusLines("abc", r, nil); lines[4] != "MaxFollowerLag:         0" || lines[5] != "MaxFollowerLagTimeMs:   0" {
		t.Fatalf("leader slowest: %q", lines[4:6])
	}
	r.CurrentVoters[0].LogEndOffset, r.CurrentVoters[0].LastCaughtUpTimestamp = 100, -1
	if lines, _ = quorumStatusLines("abc", r, nil); lines[5] != "MaxFollowerLagTimeMs:   -1" {
		t.Fatalf("unknown catch-up: %q", lines[5])
	}
	r.LeaderID = 9
	if _, exc = quorumStatusLines("abc", r, nil); exc != "java.util.NoSuchElementException: No value present" {
		t.Fatalf("no leader among the voters: %q", exc)
	}
}

func TestQuorumReplicationTable(t *testing.T) {
	r := &protocol.DescribeQuorumResponse{LeaderID: 3, LeaderEpoch: 1, HighWatermark: 20,
		CurrentVoters: []protocol.QuorumReplicaState{
			{ReplicaID: 1, LogEndOffset: 20, LastFetchTimestamp: 9000, LastCaughtUpTimestamp: 9000},
			{ReplicaID: 3, LogEndOffset: 21, LastFetchTimestamp: 10000, LastCaughtUpTimestamp: 10000},
			{ReplicaID: 2, LogEndOffset: -1, LastFetchTimestamp: -1, LastCaughtUpTimestamp: -1},
		},
		Observers: []protocol.QuorumReplicaState{{ReplicaID: 4, LogEndOffset: 21, LastFetchTimestamp: 9990, LastCaughtUpTimestamp: 9990}},
	}
	lines, _ := quorumReplicationLines(r, false, 10000, nil)
	want := []string{
		"NodeId\tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus  \t",
		"3     \t21          \t0  \t10000             \t10000                \tLeader  \t",
		"1     \t20          \t1  \t9000              \t9000                 \tFollower\t",
		"2     \t-1          \t22 \t-1                \t-1                   \tFollower\t",
		"4     \t21          \t0  \t9990              \t9990                 \tObserver\t",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(lines, "\n"))
	}
	lines, _ = quorumReplicationLines(r, true, 10000, nil)
	if !strings.HasPrefix(lines[2], "1     \t20          \t1  \t1000 ms ago       \t1000 ms ago          \tFollower\t") ||
		!strings.Contains(lines[1], "\t0 ms ago ") || !strings.Contains(lines[3], "\t-1 ") {
		t.Fatalf("human-readable:\n%s", strings.Join(lines, "\n"))
	}
	_, exc := quorumReplicationLines(r, true, 9500, nil)
	if exc != "org.apache.kafka.common.KafkaException: Error while computing relative time, possible drift in system clock.\nCurrent timestamp is 9500, last fetch timestamp is 10000" {
		t.Fatalf("clock drift: %q", exc)
	}
}
