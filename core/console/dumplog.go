package console

import (
	"encoding/binary"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kafkascope/core/javacli"
	"kafkascope/core/metadata"
	"kafkascope/core/raft"
	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

func dumpLogSpecs() []*javacli.OptionSpec { return withCommon(dumpLogSpecList) }

var dumpLogSpecList = []javacli.OptionSpec{
	{Name: "files", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "file1, file2, ...", Desc: "REQUIRED: the data and index files to dump, separated by commas."},
	{Name: "print-data-log", Desc: "Print each record's key and value (implies --deep-iteration)."},
	{Name: "deep-iteration", Desc: "Print every record, not only batches."},
	{Name: "verify-index-only", Desc: "Only check an index against its log."},
	{Name: "index-sanity-check", Desc: "Only run the index check a broker runs at start-up."},
	{Name: "max-message-size", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "size", Desc: "The largest message size, for index checks.", Default: "5242880"},
	{Name: "max-bytes", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "size", Desc: "Read only the batches within the first size bytes.", Default: "2147483647"},
	{Name: "key-decoder-class", Arg: javacli.OptionalArg, Type: "String", Desc: "How to print keys: org.apache.kafka.tools.api.StringDecoder, LongDecoder or IntegerDecoder.", Default: "org.apache.kafka.tools.api.StringDecoder"},
	{Name: "value-decoder-class", Arg: javacli.OptionalArg, Type: "String", Desc: "How to print values (as --key-decoder-class).", Default: "org.apache.kafka.tools.api.StringDecoder"},
	{Name: "offsets-decoder", Desc: "Read the records as __consumer_offsets data (offset commits and group metadata)."},
	{Name: "transaction-log-decoder", Desc: "Read the records as __transaction_state data (transactional ids and their transactions)."},
	{Name: "cluster-metadata-decoder", Desc: "Read the records as KRaft metadata records (__cluster_metadata)."},
	{Name: "skip-record-metadata", Desc: "Print only keys and values, not each record's offset, timestamp and sizes."},
	{Name: "broker", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "id", Desc: "kafkascope: the broker whose disk holds the files (default: the first running broker)."},
}

// dumpLogTool is kafka-dump-log.sh (DumpLogSegments). It reads files on a
// broker's disk (the shell runs on a broker; --broker picks which) and takes
// no simulated time. Like the real tool it catches nothing: an error ends it
// as the JVM reports an uncaught exception, after what it already printed.
func dumpLogTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	specs := dumpLogSpecs()
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		oe := err.(*javacli.OptionError)
		t.println(`Exception in thread "main" ` + oe.Class + ": " + oe.Msg)
		t.finish(1)
		return nil
	}
	if t.helpOrVersion(p, args, "This tool helps to parse a log file and dump its contents to the console, useful for debugging a seemingly corrupt log segment.", specs) {
		return nil
	}
	if !p.Has("files") {
		t.usage(`Missing required argument "[files]"`, specs)
		return nil
	}
	var bargs []string
	if p.Has("broker") {
		bargs = []string{"--broker", p.Value("broker")}
	}
	disk, _, _, ok := t.s.diskArgs("kafka-dump-log.sh", bargs)
	if !ok {
		t.finish(1)
		return nil
	}
	d := &dumpLog{t: t, p: p, disk: disk}
	code := d.run()
	t.finish(code)
	return nil
}

type dumpLog struct {
	t    *toolRun
	p    *javacli.OptionSet
	disk *storage.Disk
	// nonConsecutive collects, per file, offsets that do not follow each
	// other (reported on stderr at the end, newest first, as Kafka does).
	nonConsecutive map[string][][2]int64
	order          []string
	// indexErrs collects the index checks' findings (dumplog_index.go).
	indexErrs *indexErrors
}

// rel is the Kafka release the tool is (the cluster's).
func (d *dumpLog) rel() release.Version { return d.t.rel() }

// before3 is the ZooKeeper era's DumpLogSegments (2.8.0, Scala): other
// header and record lines than 3.x's.
func (d *dumpLog) before3() bool { return !d.rel().AtLeast(3, 0) }

// uncaught prints an exception the JVM reports for an uncaught throw.
func (d *dumpLog) uncaught(class, msg string) int {
	d.t.println(`Exception in thread "main" ` + exceptionText(class, msg))
	return 1
}

func exceptionText(class, msg string) string {
	if msg == "" {
		return class
	}
	return class + ": " + msg
}

func (d *dumpLog) run() int {
	d.nonConsecutive = map[string][][2]int64{}
	d.indexErrs = newIndexErrors()
	for _, arg := range strings.Split(d.p.Value("files"), ",") {
		d.t.println("Dumping " + arg)
		name := path.Base(arg)
		if arg == "" {
			name = ""
		}
		dot := strings.LastIndexByte(name, '.')
		if dot < 0 && d.rel().AtLeast(4, 3) {
			d.t.println("Ignoring unknown file " + arg) // the Java tool checks for a suffix
			continue
		}
		if dot < 0 {
			return d.uncaught("java.lang.StringIndexOutOfBoundsException", fmt.Sprintf("begin -1, end %d, length %d", len(name), len(name)))
		}
		var code int
		switch name[dot:] {
		case ".log", ".checkpoint":
			code = d.dumpLogFile(arg, name)
		case ".index", ".timeindex":
			code = d.dumpIndex(arg, name)
		case ".txnindex":
			code = d.dumpTxnIndex(arg)
		case ".snapshot":
			if !d.disk.Exists(resolvePath(arg)) {
				code = d.uncaught("java.nio.file.NoSuchFileException", arg)
			}
		default:
			d.t.println("Ignoring unknown file " + arg)
		}
		if code != 0 {
			return code
		}
	}
	d.t.printLines(d.indexErrs.lines())
	for _, f := range d.order {
		d.t.println("Non-consecutive offsets in " + f)
		pairs := d.nonConsecutive[f]
		if d.rel().AtLeast(4, 3) {
			// A TreeMap from 4.3: ascending.
			for _, p := range pairs {
				d.t.println(fmt.Sprintf("  %d is followed by %d", p[0], p[1]))
			}
			continue
		}
		for i := len(pairs) - 1; i >= 0; i-- {
			d.t.println(fmt.Sprintf("  %d is followed by %d", pairs[i][0], pairs[i][1]))
		}
	}
	return 0
}

// dumpLogFile prints a segment (or a snapshot) batch by batch, and record by
// record with deep iteration (DumpLogSegments.dumpLog).
func (d *dumpLog) dumpLogFile(arg, name string) int {
	// The message parser (and its decoders, with their deprecation notes)
	// is made before the file is opened.
	keyDec, valDec := "org.apache.kafka.tools.api.StringDecoder", "org.apache.kafka.tools.api.StringDecoder"
	if !d.p.Has("cluster-metadata-decoder") && !d.p.Has("offsets-decoder") && !d.p.Has("transaction-log-decoder") {
		var ok bool
		if valDec, ok = d.decoder("value-decoder-class"); !ok {
			return 1
		}
		if keyDec, ok = d.decoder("key-decoder-class"); !ok {
			return 1
		}
	}
	switch {
	case strings.HasSuffix(name, ".log"):
		base := strings.SplitN(name, ".", 2)[0]
		start, err := strconv.ParseInt(base, 10, 64)
		if err != nil {
			return d.uncaught("java.lang.NumberFormatException", fmt.Sprintf("For input string: %q", base))
		}
		if d.before3() {
			d.t.println(fmt.Sprintf("Starting offset: %d", start))
		} else {
			d.t.println(fmt.Sprintf("Log starting offset: %d", start))
		}
	case name == "bootstrap.checkpoint":
		d.t.println("KRaft bootstrap snapshot")
	default:
		end, epoch, ok := parseSnapshotName(name)
		if !ok {
			return d.uncaught("java.util.NoSuchElementException", "No value present")
		}
		d.t.println(fmt.Sprintf("Snapshot end offset: %d, epoch: %d", end, epoch))
	}
	maxBytes, err := d.p.Int("max-bytes", 32)
	if err != nil {
		return d.uncaught("joptsimple.OptionArgumentConversionException", err.Error())
	}
	full := resolvePath(arg)
	if d.disk.IsDir(full) {
		return d.uncaught("java.io.IOException", "Is a directory")
	}
	data, err := d.disk.ReadFile(full)
	if err != nil {
		return d.uncaught("java.nio.file.NoSuchFileException", arg)
	}
	if maxBytes < 0 { // FileRecords.slice
		return d.uncaught("java.lang.IllegalArgumentException", fmt.Sprintf("Invalid size: %d in read from FileRecords(size=%d, file=%s, start=0, end=2147483647)", maxBytes, len(data), arg))
	}
	view := data
	if int64(len(view)) > maxBytes {
		view = view[:maxBytes]
	}
	printData := d.p.Has("print-data-log") || d.p.Has("offsets-decoder") || d.p.Has("transaction-log-decoder") || d.p.Has("cluster-metadata-decoder") || d.p.Has("key-decoder-class") || d.p.Has("value-decoder-class")
	deep := d.p.Has("deep-iteration") || printData
	valid := 0
	last := int64(-1)
	for pos := 0; len(view)-pos >= record.LogOverhead; {
		rest := view[pos:]
		length := int32(binary.BigEndian.Uint32(rest[8:12]))
		size := int(length) + record.LogOverhead
		if length < 5 {
			return d.uncaught("org.apache.kafka.common.errors.CorruptRecordException", fmt.Sprintf("Found record size %d smaller than minimum record overhead (14) in file %s.", length, name))
		}
		if size > len(rest) || len(rest) < record.HeaderSize {
			break // a partial batch at the end: not read, counted as invalid bytes
		}
		h, err := record.ParseHeader(rest)
		if err != nil {
			return d.uncaught("org.apache.kafka.common.errors.CorruptRecordException", err.Error())
		}
		d.printBatch(h, valid, record.ComputeCRC(rest[:size]) == h.CRC)
		if deep {
			b, _, err := record.Decode(rest[:size])
			if err != nil {
				return d.uncaught("org.apache.kafka.common.InvalidRecordException", err.Error())
			}
			for i := range b.Records {
				r := &b.Records[i]
				// 4.3's Java DumpLogSegments starts from -1, so a file
				// whose first record is not offset 0 is reported too.
				if (last >= 0 || d.rel().AtLeast(4, 3)) && r.Offset != last+1 {
					if _, seen := d.nonConsecutive[full]; !seen {
						d.order = append(d.order, full)
					}
					d.nonConsecutive[full] = append(d.nonConsecutive[full], [2]int64{last, r.Offset})
				}
				last = r.Offset
				d.t.println(d.recordLine(&b, h, r, printData, keyDec, valDec, valid))
			}
		}
		valid += size
		pos += size
	}
	if trailing := len(data) - valid; trailing > 0 && maxBytes == math.MaxInt32 {
		d.t.println(fmt.Sprintf("Found %d invalid bytes at the end of %s", trailing, name))
	}
	return 0
}

// decoder resolves a --*-decoder-class to one the simulator knows.
func (d *dumpLog) decoder(opt string) (string, bool) {
	name := d.p.Value(opt)
	if v := d.p.Values(opt); len(v) > 0 && v[len(v)-1] == "" {
		name = "org.apache.kafka.tools.api.StringDecoder"
	}
	for _, old := range []string{"StringDecoder", "LongDecoder", "IntegerDecoder", "DefaultDecoder"} {
		if name == "kafka.serializer."+old && d.rel().AtLeast(4, 0) {
			// 4.0 removed the kafka.serializer decoders and the mapping to
			// their replacements: Utils.newInstance fails to load the class.
			// 4.3's Java tool wraps that in a RuntimeException
			// (DumpLogSegments.java, 4.3).
			if d.rel().AtLeast(4, 3) {
				d.uncaught("java.lang.RuntimeException", "Failed to load decoder class")
				d.t.println("Caused by: java.lang.ClassNotFoundException: " + name)
				return "", false
			}
			d.uncaught("java.lang.ClassNotFoundException", name)
			return "", false
		}
		if name == "kafka.serializer."+old {
			d.t.println("kafka.serializer." + old + " is deprecated. Please use org.apache.kafka.tools.api." + old + " instead")
			name = "org.apache.kafka.tools.api." + old
		}
	}
	switch name {
	case "org.apache.kafka.tools.api.StringDecoder", "org.apache.kafka.tools.api.LongDecoder", "org.apache.kafka.tools.api.IntegerDecoder":
		return name, true
	}
	d.t.println("kafkascope: decoder " + name + " is not simulated (use StringDecoder, LongDecoder or IntegerDecoder from org.apache.kafka.tools.api)")
	return "", false
}

// printBatch is printBatchLevel: one line per batch. position is the sum of
// the sizes of the batches before it.
func (d *dumpLog) printBatch(h record.BatchHeader, position int, valid bool) {
	if d.before3() {
		// 2.8.0: no deleteHorizonMs, and the codec is the enum's name.
		d.t.println(fmt.Sprintf("baseOffset: %d lastOffset: %d count: %d baseSequence: %d lastSequence: %d producerId: %d producerEpoch: %d partitionLeaderEpoch: %d isTransactional: %t isControl: %t position: %d %s: %d size: %d magic: %d compresscodec: %s crc: %d isvalid: %t",
			h.BaseOffset, h.LastOffset(), h.RecordCount, h.BaseSequence, h.LastSequence(), h.ProducerID, h.ProducerEpoch,
			h.PartitionLeaderEpoch, h.IsTransactional(), h.IsControl(), position, h.TimestampType(), h.MaxTimestamp,
			h.SizeInBytes(), h.Magic, strings.ToUpper(h.CompressionCodec()), h.CRC, valid))
		return
	}
	horizon := "OptionalLong.empty"
	if v, ok := h.DeleteHorizonMs(); ok {
		horizon = fmt.Sprintf("OptionalLong[%d]", v)
	}
	d.t.println(fmt.Sprintf("baseOffset: %d lastOffset: %d count: %d baseSequence: %d lastSequence: %d producerId: %d producerEpoch: %d partitionLeaderEpoch: %d isTransactional: %t isControl: %t deleteHorizonMs: %s position: %d %s: %d size: %d magic: %d compresscodec: %s crc: %d isvalid: %t",
		h.BaseOffset, h.LastOffset(), h.RecordCount, h.BaseSequence, h.LastSequence(), h.ProducerID, h.ProducerEpoch,
		h.PartitionLeaderEpoch, h.IsTransactional(), h.IsControl(), horizon, position, h.TimestampType(), h.MaxTimestamp,
		h.SizeInBytes(), h.Magic, h.CompressionCodec(), h.CRC, valid))
}

// recordLine is one record under its batch with deep iteration.
func (d *dumpLog) recordLine(b *record.Batch, h record.BatchHeader, r *record.Record, printData bool, keyDec, valDec string, position int) string {
	var s strings.Builder
	prefix := "| "
	if !d.p.Has("skip-record-metadata") {
		seq := int32(-1)
		if b.BaseSequence >= 0 {
			seq = record.IncrementSequence(b.BaseSequence, int32(r.Offset-b.BaseOffset))
		}
		keys := make([]string, len(r.Headers))
		for i, h := range r.Headers {
			keys[i] = h.Key
		}
		if d.before3() {
			// 2.8.0 repeats the batch's fields on every record (a v2
			// record has no crc of its own: null, and is always valid).
			fmt.Fprintf(&s, "| offset: %d isValid: true crc: null keySize: %d valueSize: %d %s: %d baseOffset: %d lastOffset: %d baseSequence: %d lastSequence: %d producerEpoch: %d partitionLeaderEpoch: %d batchSize: %d magic: %d compressType: %s position: %d sequence: %d headerKeys: [%s]",
				r.Offset, nullableSize(r.Key), nullableSize(r.Value), b.TimestampType(), b.RecordTimestamp(r),
				h.BaseOffset, h.LastOffset(), h.BaseSequence, h.LastSequence(), h.ProducerEpoch, h.PartitionLeaderEpoch,
				h.SizeInBytes(), h.Magic, strings.ToUpper(h.CompressionCodec()), position, seq, strings.Join(keys, ","))
		} else {
			fmt.Fprintf(&s, "| offset: %d %s: %d keySize: %d valueSize: %d sequence: %d headerKeys: [%s]",
				r.Offset, b.TimestampType(), b.RecordTimestamp(r), nullableSize(r.Key), nullableSize(r.Value), seq, strings.Join(keys, ","))
		}
		prefix = " "
		if b.IsControl() {
			s.WriteString(controlText(r.Key, r.Value, d.rel()))
		}
	}
	if printData && !b.IsControl() {
		if d.p.Has("transaction-log-decoder") {
			k, payload, ok := txnLogRecord(d.rel(), r.Offset, r.Key, r.Value)
			s.WriteString(prefix + "key: " + k)
			if ok {
				s.WriteString(" payload: " + payload)
			}
			return s.String()
		}
		if d.p.Has("offsets-decoder") {
			k, payload, ok := offsetsRecord(r.Offset, r.Key, r.Value)
			s.WriteString(prefix + "key: " + k)
			if ok {
				s.WriteString(" payload: " + payload)
			}
			return s.String()
		}
		if d.p.Has("cluster-metadata-decoder") {
			// Up to 4.2 the payload follows a literal " payload: "; 4.3's
			// Java tool puts the key prefix ("| " without metadata) first.
			p := " "
			if d.rel().AtLeast(4, 3) {
				p = prefix
			}
			s.WriteString(p + "payload: " + metadata.DumpPayload(r.Offset, r.Value))
			return s.String()
		}
		// From 4.3 (printRecordContents) the payload of a record without
		// a key takes the key's prefix ("| " without metadata); before,
		// it always follows " payload: ".
		p := " "
		if r.Key != nil {
			s.WriteString(prefix + "key: " + decodeWith(keyDec, r.Key))
		} else if d.rel().AtLeast(4, 3) {
			p = prefix
		}
		if r.Value != nil {
			s.WriteString(p + "payload: " + decodeWith(valDec, r.Value))
		}
	}
	return s.String()
}

func nullableSize(b []byte) int {
	if b == nil {
		return -1
	}
	return len(b)
}

// controlText is what a control record adds to its line: transaction
// markers and KRaft's snapshot header and footer print their contents
// (the footer and header as their JSON converters write them), and so
// does KRaft's LEADER_CHANGE from 4.1 (3.8 prints only its name and id,
// as it does for every other type).
func controlText(key, value []byte, rel release.Version) string {
	if len(key) < 4 {
		return " controlType: UNKNOWN(-1)"
	}
	typ := int16(binary.BigEndian.Uint16(key[2:4]))
	switch raft.ControlType(typ) {
	case raft.ControlAbort, raft.ControlCommit:
		if len(value) >= 6 {
			return fmt.Sprintf(" endTxnMarker: %s coordinatorEpoch: %d", raft.ControlType(typ), int32(binary.BigEndian.Uint32(value[2:6])))
		}
	case raft.ControlSnapshotHeader:
		if h, err := raft.DecodeSnapshotHeaderRecord(value); err == nil {
			return fmt.Sprintf(` SnapshotHeader {"version":%d,"lastContainedLogTimestamp":%d}`, h.Version, h.LastContainedLogTimestamp)
		}
	case raft.ControlSnapshotFooter:
		if f, err := raft.DecodeSnapshotFooterRecord(value); err == nil {
			return fmt.Sprintf(` SnapshotFooter {"version":%d}`, f.Version)
		}
	case raft.ControlLeaderChange:
		if m, err := raft.DecodeLeaderChangeMessage(value); err == nil && rel.AtLeast(4, 1) {
			// LeaderChangeMessageJsonConverter at version 0: voters are a
			// HashMap's keys (ascending for small ids); grantingVoters a
			// Set.copyOf, whose order changes with every JVM: ascending
			// here, one of the orders Kafka prints.
			voters := func(ids []int32) string {
				ids = slices.Sorted(slices.Values(ids))
				parts := make([]string, len(ids))
				for i, id := range ids {
					parts[i] = fmt.Sprintf(`{"voterId":%d}`, id)
				}
				return "[" + strings.Join(parts, ",") + "]"
			}
			return fmt.Sprintf(` LeaderChange: {"version":%d,"leaderId":%d,"voters":%s,"grantingVoters":%s}`, m.Version, m.LeaderID, voters(m.Voters), voters(m.GrantingVoters))
		}
	}
	return fmt.Sprintf(" controlType: %s(%d)", raft.ControlType(typ), typ)
}

// decodeWith decodes bytes as Kafka's decoder classes do.
func decodeWith(class string, b []byte) string {
	switch class {
	case "org.apache.kafka.tools.api.LongDecoder":
		if len(b) != 8 {
			return fmt.Sprintf("<cannot decode %d bytes as a long>", len(b))
		}
		return strconv.FormatInt(int64(binary.BigEndian.Uint64(b)), 10)
	case "org.apache.kafka.tools.api.IntegerDecoder":
		if len(b) != 4 {
			return fmt.Sprintf("<cannot decode %d bytes as an int>", len(b))
		}
		return strconv.FormatInt(int64(int32(binary.BigEndian.Uint32(b))), 10)
	}
	return javaUTF8(b)
}

// javaUTF8 decodes bytes as Java's new String(bytes, UTF_8): each byte of a
// malformed sequence becomes U+FFFD.
func javaUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			s.WriteRune(utf8.RuneError)
			b = b[1:]
			continue
		}
		s.WriteRune(r)
		b = b[n:]
	}
	return s.String()
}

// parseSnapshotName reads "<20-digit end offset>-<10-digit epoch>.checkpoint".
func parseSnapshotName(name string) (int64, int32, bool) {
	base := strings.TrimSuffix(name, ".checkpoint")
	off, ep, ok := strings.Cut(base, "-")
	if !ok || len(off) != 20 || len(ep) != 10 {
		return 0, 0, false
	}
	o, err1 := strconv.ParseInt(off, 10, 64)
	e, err2 := strconv.ParseInt(ep, 10, 32)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return o, int32(e), true
}
