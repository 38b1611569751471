package feed

// CatTxn: transactions, as the transaction coordinators and the
// partitions' leaders carry them out.
const CatTxn = "txn"

// A transactional id's coordinator notes each transition it completed
// ("txn.state", the field state being Kafka's TransactionState name), and
// a leader each marker it wrote ("txn.marker", marker COMMIT or ABORT)
// and, under transactions v2, each partition it added to a transaction
// ("txn.added.by.leader").
// sentenceKey picks the sentence for the state or the marker, which says
// what the step means; the general ones stay for any other state.
func init() {
	for _, e := range []entry{
		{"txn.state", template{CatTxn,
			"Transaction coordinator {broker}: {txnid} is now {state} (producer {producer}, epoch {epoch}, {partitions} partition(s)), written to __transaction_state.",
			"트랜잭션 코디네이터 {broker}: {txnid}의 상태가 이제 {state}입니다(프로듀서 {producer}, 에포크 {epoch}, 파티션 {partitions}개). __transaction_state에 기록했습니다."}},
		{"txn.state.Empty", template{CatTxn,
			"Transaction coordinator {broker}: {txnid} is ready with producer {producer}, epoch {epoch}, and no transaction open (InitProducerId, written to __transaction_state).",
			"트랜잭션 코디네이터 {broker}: {txnid}의 준비가 끝났습니다. 프로듀서 {producer}, 에포크 {epoch}이고 열린 트랜잭션은 없습니다(InitProducerId, __transaction_state에 기록)."}},
		{"txn.state.Ongoing", template{CatTxn,
			"Transaction coordinator {broker}: {txnid} has a transaction open on {partitions} partition(s) (Ongoing, written to __transaction_state before the partitions take the transaction's records).",
			"트랜잭션 코디네이터 {broker}: {txnid}의 트랜잭션이 파티션 {partitions}개에 걸쳐 열려 있습니다(Ongoing. 파티션이 트랜잭션의 레코드를 받기 전에 __transaction_state에 먼저 기록합니다)."}},
		{"txn.state.PrepareCommit", template{CatTxn,
			"Transaction coordinator {broker} logged PrepareCommit for {txnid} (producer {producer}, epoch {epoch}): the commit is decided, whatever fails now, and it has the leaders of the {partitions} partition(s) write COMMIT markers.",
			"트랜잭션 코디네이터 {broker}가 {txnid}(프로듀서 {producer}, 에포크 {epoch})의 PrepareCommit을 기록했습니다. 이제 무엇이 실패하든 커밋은 확정이고, 파티션 {partitions}개의 리더에게 COMMIT 마커를 쓰게 합니다."}},
		{"txn.state.PrepareAbort", template{CatTxn,
			"Transaction coordinator {broker} logged PrepareAbort for {txnid} (producer {producer}, epoch {epoch}): the transaction will be aborted, and it has the leaders of the {partitions} partition(s) write ABORT markers.",
			"트랜잭션 코디네이터 {broker}가 {txnid}(프로듀서 {producer}, 에포크 {epoch})의 PrepareAbort를 기록했습니다. 트랜잭션은 중단되고, 파티션 {partitions}개의 리더에게 ABORT 마커를 쓰게 합니다."}},
		{"txn.state.PrepareCommit.v2", template{CatTxn,
			"Transaction coordinator {broker} logged PrepareCommit for {txnid} under the next epoch, {epoch} (transactions v2: each commit or abort bumps the producer epoch, and the producer goes on with the new one): the commit is decided, and the leaders of the {partitions} partition(s) write COMMIT markers of that epoch.",
			"트랜잭션 코디네이터 {broker}가 {txnid}의 PrepareCommit을 다음 에포크 {epoch}로 기록했습니다(트랜잭션 v2: 커밋하거나 중단할 때마다 프로듀서 에포크가 하나 올라가고, 프로듀서는 새 에포크로 이어 갑니다). 커밋은 확정이고, 파티션 {partitions}개의 리더가 그 에포크의 COMMIT 마커를 씁니다."}},
		{"txn.state.PrepareAbort.v2", template{CatTxn,
			"Transaction coordinator {broker} logged PrepareAbort for {txnid} under the next epoch, {epoch} (transactions v2: each commit or abort bumps the producer epoch, so nothing sent under the old one can join a later transaction): the leaders of the {partitions} partition(s) write ABORT markers of that epoch.",
			"트랜잭션 코디네이터 {broker}가 {txnid}의 PrepareAbort를 다음 에포크 {epoch}로 기록했습니다(트랜잭션 v2: 커밋하거나 중단할 때마다 프로듀서 에포크가 올라가므로, 이전 에포크로 보낸 것은 뒤의 트랜잭션에 끼어들 수 없습니다). 파티션 {partitions}개의 리더가 그 에포크의 ABORT 마커를 씁니다."}},
		{"txn.state.CompleteCommit", template{CatTxn,
			"Transaction coordinator {broker}: every COMMIT marker of {txnid}'s transaction is written; the transaction is complete (CompleteCommit).",
			"트랜잭션 코디네이터 {broker}: {txnid}의 트랜잭션에 필요한 COMMIT 마커를 모두 썼습니다. 트랜잭션이 끝났습니다(CompleteCommit)."}},
		{"txn.state.CompleteAbort", template{CatTxn,
			"Transaction coordinator {broker}: every ABORT marker of {txnid}'s transaction is written; the transaction is aborted (CompleteAbort).",
			"트랜잭션 코디네이터 {broker}: {txnid}의 트랜잭션에 필요한 ABORT 마커를 모두 썼습니다. 트랜잭션이 중단되었습니다(CompleteAbort)."}},
		{"txn.state.Dead", template{CatTxn,
			"Transaction coordinator {broker}: {txnid} was idle longer than transactional.id.expiration.ms, so its entry was tombstoned in __transaction_state and dropped (Dead); if it comes back it gets a new producer id.",
			"트랜잭션 코디네이터 {broker}: {txnid}가 transactional.id.expiration.ms보다 오래 쓰이지 않아 __transaction_state에 톰스톤을 쓰고 항목을 지웠습니다(Dead). 다시 오면 새 프로듀서 ID를 받습니다."}},
		{"txn.added.by.leader", template{CatTxn,
			"Broker {broker}, leader of {tp}, had {txnid}'s coordinator add the partition to the transaction (producer {producer}, epoch {epoch}) before appending its first batch there: under transactions v2 the producer sends no AddPartitionsToTxn.",
			"{tp}의 리더인 브로커 {broker}가 첫 배치를 쓰기 전에 {txnid}의 코디네이터에게 이 파티션을 트랜잭션(프로듀서 {producer}, 에포크 {epoch})에 넣게 했습니다. 트랜잭션 v2에서는 프로듀서가 AddPartitionsToTxn을 보내지 않습니다."}},
		{"txn.marker", template{CatTxn,
			"Broker {broker} wrote the {marker} marker of producer {producer} (epoch {epoch}) at offset {offset} of {tp}: the transaction's records there are now committed or aborted for read_committed consumers.",
			"브로커 {broker}가 {tp}의 오프셋 {offset}에 프로듀서 {producer}(에포크 {epoch})의 {marker} 마커를 썼습니다. 그 트랜잭션의 레코드가 read_committed 컨슈머에게 커밋 또는 중단으로 확정됩니다."}},
		{"txn.marker.commit", template{CatTxn,
			"Broker {broker} wrote a COMMIT marker of producer {producer} (epoch {epoch}) at offset {offset} of {tp}: once the HW passes it, read_committed consumers read the transaction's records there.",
			"브로커 {broker}가 {tp}의 오프셋 {offset}에 프로듀서 {producer}(에포크 {epoch})의 COMMIT 마커를 썼습니다. HW가 이 마커를 지나면 read_committed 컨슈머도 이 트랜잭션의 레코드를 읽습니다."}},
		{"txn.marker.skipped", template{CatTxn,
			"Transaction coordinator {broker} skipped {tp} while completing {txnid}'s transaction (producer {producer}): its broker's metadata does not have that partition, so Kafka takes the topic for deleted. If the partition does exist, its marker is never written and the transaction stays open there.",
			"트랜잭션 코디네이터 {broker}가 {txnid}(프로듀서 {producer})의 트랜잭션을 끝내면서 {tp}를 건너뛰었습니다. 브로커의 메타데이터에 그 파티션이 없어 카프카는 토픽이 삭제된 것으로 봅니다. 파티션이 실제로 있다면 마커는 끝내 쓰이지 않고 그곳의 트랜잭션은 열린 채로 남습니다."}},
		{"txn.marker.abort", template{CatTxn,
			"Broker {broker} wrote an ABORT marker of producer {producer} (epoch {epoch}) at offset {offset} of {tp}: the transaction's records stay in the log, and read_committed consumers skip them (the abort is kept in the segment's .txnindex).",
			"브로커 {broker}가 {tp}의 오프셋 {offset}에 프로듀서 {producer}(에포크 {epoch})의 ABORT 마커를 썼습니다. 트랜잭션의 레코드는 로그에 남지만 read_committed 컨슈머는 건너뜁니다(중단 기록은 세그먼트의 .txnindex에 남습니다)."}},
	} {
		if _, dup := catalog[e.key]; dup {
			panic("feed: sentence " + e.key + " defined twice")
		}
		catalog[e.key] = e.template
	}
}
