package zookeeper

import "strconv"

// A zxid is a ZooKeeper transaction id: the leader's epoch in the high 32
// bits and a counter the leader increments per transaction in the low 32
// (server/util/ZxidUtils.java, release-3.5.9: makeZxid, getEpochFromZxid,
// getCounterFromZxid). Every write request takes the next zxid, also when
// it fails (PrepRequestProcessor.pRequest calls zks.getNextZxid() before
// checking it, and a failed request travels on as an error transaction).

// MakeZxid is ZxidUtils.makeZxid.
func MakeZxid(epoch, counter int64) int64 { return epoch<<32 | counter&0xffffffff }

// ZxidEpoch is ZxidUtils.getEpochFromZxid.
func ZxidEpoch(zxid int64) int64 { return zxid >> 32 }

// ZxidCounter is ZxidUtils.getCounterFromZxid.
func ZxidCounter(zxid int64) int64 { return zxid & 0xffffffff }

// ZxidString is Long.toHexString(zxid) (ZxidUtils.zxidToString; the shell
// prints it after "0x").
func ZxidString(zxid int64) string { return strconv.FormatUint(uint64(zxid), 16) }
