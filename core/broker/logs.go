package broker

import (
	"fmt"
	"path"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/jsonvalue"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

func (b *Broker) file(name string) string { return path.Join(b.logDir, name) }

// loadLogs is the LogManager's startup: format the log dir if it is new,
// notice whether the last run ended cleanly, and open (recovering if
// needed) every partition directory.
func (b *Broker) loadLogs(env *sim.Env) error {
	d := b.cfg.Disk
	if !d.Exists(b.file(storage.MetaProperties)) {
		// kafka-storage format: done once, when the cluster is created.
		if err := d.MkdirAll(b.logDir); err != nil {
			return err
		}
		if err := d.WriteFileDurable(b.file(storage.MetaProperties), storage.EncodeMetaProperties(b.cfg.NodeID, b.cfg.DirectoryID, b.cfg.ClusterID, env.Now().Wall())); err != nil {
			return err
		}
		b.cleanShutdown = true
	}
	b.previousBrokerEpoch = -1
	if d.Exists(b.file(storage.CleanShutdownFile)) {
		b.cleanShutdown = true
		if data, err := d.ReadFile(b.file(storage.CleanShutdownFile)); err == nil {
			b.previousBrokerEpoch = cleanShutdownEpoch(data)
		}
		if err := d.Remove(b.file(storage.CleanShutdownFile)); err != nil {
			return err
		}
	}
	// The directory lock a running broker holds (removed on clean shutdown),
	// and the checkpoint files, created empty at startup.
	if err := d.WriteFile(b.file(storage.LockFile), nil); err != nil {
		return err
	}
	for _, name := range []string{storage.RecoveryPointCheckpoint, storage.LogStartOffsetCheckpoint, storage.ReplicationOffsetCheckpoint, storage.CleanerOffsetCheckpoint} {
		if !d.Exists(b.file(name)) {
			if err := d.WriteFileDurable(b.file(name), nil); err != nil {
				return err
			}
		}
	}
	recovery := b.readCheckpoint(storage.RecoveryPointCheckpoint)
	hws := b.readCheckpoint(storage.ReplicationOffsetCheckpoint)
	starts := b.readCheckpoint(storage.LogStartOffsetCheckpoint)
	for _, e := range d.List(b.logDir) {
		if !e.IsDir {
			continue
		}
		tp, ok := storage.ParseDirName(e.Name)
		if !ok || tp.Topic == "__cluster_metadata" {
			continue
		}
		rp, ok := recovery[tp]
		if !ok {
			rp = 0
		}
		hw, ok := hws[tp]
		if !ok {
			hw = 0
		}
		start, ok := starts[tp]
		if !ok {
			start = -1
		}
		// Kafka loads a log with its topic's config, which the broker
		// knows from the metadata it recovered before loading logs; here
		// the image is still empty, so the defaults apply until the first
		// publish sets the topic's config (reconcile).
		log, rep, err := storage.OpenLog(d, b.logDir, tp, b.logConfig(tp.Topic), rp, hw, start, b.cleanShutdown)
		if err != nil {
			return fmt.Errorf("%s: %w", tp, err)
		}
		b.attachLog(env, log)
		if rep.Recovered {
			line := fmt.Sprintf("%s: recovered from offset %d to log end offset %d", tp, rp, log.LogEndOffset())
			if rep.TruncatedBytes > 0 {
				line += fmt.Sprintf(", truncated %d bytes of an invalid tail (%s)", rep.TruncatedBytes, rep.Reason)
			}
			b.recoveries = append(b.recoveries, line)
			env.Note(event.LogRecovered{Broker: b.cfg.NodeID, TP: tp, From: rp, LEO: log.LogEndOffset(),
				TruncatedBytes: rep.TruncatedBytes, Reason: rep.Reason})
		}
		p := newPartition(b, tp, log)
		b.setPartition(tp, p)
		p.noteHW(env)
	}
	return nil
}

func (b *Broker) readCheckpoint(name string) map[storage.TopicPartition]int64 {
	data, err := b.cfg.Disk.ReadFile(b.file(name))
	if err != nil || len(data) == 0 {
		return map[storage.TopicPartition]int64{}
	}
	m, err := storage.DecodeOffsetCheckpoint(data)
	if err != nil {
		return map[storage.TopicPartition]int64{}
	}
	return m
}

// hwCheckpointTask writes replication-offset-checkpoint every
// replica.high.watermark.checkpoint.interval.ms: the HW a restarted broker
// starts from.
func (b *Broker) hwCheckpointTask(env *sim.Env) {
	if b.state == StateStopped {
		return
	}
	if len(b.partitions) > 0 {
		b.writeHWCheckpoint()
	}
	env.After(b.ms("replica.high.watermark.checkpoint.interval.ms"), "highwatermark-checkpoint", b.hwCheckpointTask)
}

// recoveryPointCheckpointTask writes recovery-point-offset-checkpoint and
// log-start-offset-checkpoint every log.flush.offset.checkpoint.interval.ms.
func (b *Broker) recoveryPointCheckpointTask(env *sim.Env) {
	if b.state == StateStopped {
		return
	}
	b.writeRecoveryCheckpoints()
	env.After(time.Duration(b.conf().BrokerInt("log.flush.offset.checkpoint.interval.ms"))*time.Millisecond, "kafka-recovery-point-checkpoint", b.recoveryPointCheckpointTask)
}

func (b *Broker) writeHWCheckpoint() {
	b.mustWrite(storage.ReplicationOffsetCheckpoint, b.hwCheckpoint())
}

// hwCheckpoint is replication-offset-checkpoint's content now.
func (b *Broker) hwCheckpoint() []byte {
	hws := map[storage.TopicPartition]int64{}
	for tp, p := range b.partitions {
		hws[tp] = p.log.HighWatermark()
	}
	return storage.EncodeOffsetCheckpoint(hws)
}

func (b *Broker) writeRecoveryCheckpoints() {
	b.recoveryCheckpointWriter(b.recoveryCheckpoints())(0)
}

// recoveryCheckpoints are recovery-point-offset-checkpoint's and
// log-start-offset-checkpoint's contents now.
func (b *Broker) recoveryCheckpoints() [2][]byte {
	rps := map[storage.TopicPartition]int64{}
	starts := map[storage.TopicPartition]int64{}
	for tp, p := range b.partitions {
		rps[tp] = p.log.RecoveryPoint()
		if p.log.LogStartOffset() > p.log.Segments()[0].BaseOffset {
			starts[tp] = p.log.LogStartOffset()
		}
	}
	return [2][]byte{storage.EncodeOffsetCheckpoint(rps), storage.EncodeOffsetCheckpoint(starts)}
}

// recoveryCheckpointWriter writes data (recoveryCheckpoints) to
// recovery-point-offset-checkpoint and log-start-offset-checkpoint each
// time it is called, with the files' paths joined once: a leap runs the
// same write every log.flush.offset.checkpoint.interval.ms of its span.
func (b *Broker) recoveryCheckpointWriter(data [2][]byte) func(int) {
	recovery, logStart := b.file(storage.RecoveryPointCheckpoint), b.file(storage.LogStartOffsetCheckpoint)
	return func(int) {
		b.mustWritePath(recovery, data[0])
		b.mustWritePath(logStart, data[1])
	}
}

func (b *Broker) writeCheckpoints() {
	b.writeHWCheckpoint()
	b.writeRecoveryCheckpoints()
}

// cleanShutdownEpoch reads the broker epoch from a clean-shutdown file,
// {"version":0,"brokerEpoch":N} (Kafka's CleanShutdownFileHandler), or
// -1 where it holds none.
// (Read with core/jsonvalue: encoding/json's reflection decoder would add
// 70 KB to the page's compressed download for this one file.)
func cleanShutdownEpoch(data []byte) int64 {
	v, err := jsonvalue.Parse(string(data))
	if err != nil {
		return -1
	}
	f, ok := v.Field("brokerEpoch")
	var epoch int64
	if !ok || jsonvalue.DecodeInt(f, &epoch) != nil {
		return -1
	}
	return epoch
}

func (b *Broker) writeCleanShutdownFile() {
	_ = b.cfg.Disk.Remove(b.file(storage.LockFile))
	b.mustWrite(storage.CleanShutdownFile, []byte(fmt.Sprintf(`{"version":0,"brokerEpoch":%d}`, b.brokerEpoch)))
}

func (b *Broker) mustWrite(name string, data []byte) { b.mustWritePath(b.file(name), data) }

// mustWritePath is mustWrite of a path joined already (a leap's runs of
// checkpoint writes join each once: joining for every write was a
// twentieth of a leaped idle week's garbage).
func (b *Broker) mustWritePath(p string, data []byte) {
	if err := b.cfg.Disk.WriteFileDurable(p, data); err != nil {
		panic(fmt.Sprintf("broker %d: writing %s: %v", b.cfg.NodeID, path.Base(p), err))
	}
}
