package storage

import "path"

// cleaner-offset-checkpoint: per partition, the offset a log is cleaned up
// to (its first dirty offset), in the broker's offset checkpoint format.
// The broker creates it empty at startup; the cleaner rewrites it, fsynced,
// after every pass.

// ReadCleanerCheckpoint reads logDir's cleaner-offset-checkpoint. A missing,
// empty or malformed file reads as no entries (Kafka logs the error and
// carries on the same way).
func ReadCleanerCheckpoint(d *Disk, logDir string) map[TopicPartition]int64 {
	data, err := d.ReadFile(path.Join(logDir, CleanerOffsetCheckpoint))
	if err != nil || len(data) == 0 {
		return map[TopicPartition]int64{}
	}
	m, err := DecodeOffsetCheckpoint(data)
	if err != nil {
		return map[TopicPartition]int64{}
	}
	return m
}

// WriteCleanerCheckpoint replaces logDir's cleaner-offset-checkpoint,
// durably (Kafka writes a temporary file, fsyncs it and renames it).
func WriteCleanerCheckpoint(d *Disk, logDir string, offsets map[TopicPartition]int64) error {
	return d.WriteFileDurable(path.Join(logDir, CleanerOffsetCheckpoint), EncodeOffsetCheckpoint(offsets))
}

// UpdateCleanerCheckpoint is Kafka's LogCleanerManager.updateCheckpoints:
// read the file, drop the partitions this broker no longer has (keep
// false), set the updates, delete remove, and write it back.
func UpdateCleanerCheckpoint(d *Disk, logDir string, keep func(TopicPartition) bool, updates map[TopicPartition]int64, remove ...TopicPartition) error {
	cur := ReadCleanerCheckpoint(d, logDir)
	for tp := range cur {
		if !keep(tp) {
			delete(cur, tp)
		}
	}
	for _, tp := range remove {
		delete(cur, tp)
	}
	for tp, o := range updates {
		cur[tp] = o
	}
	return WriteCleanerCheckpoint(d, logDir, cur)
}
