package i18n

// Transactions on the diagram: the replica strips' markers, aborted and
// open records and LSO line (ui/diagram_txn.go), a transactional
// producer's card and the transaction coordinators' badges
// (ui/diagram_txn_card.go). The producer's state is drawn under Kafka's
// name (IN_TRANSACTION, ...) in both languages; its tooltip explains it.
// init adds them to uiText, as ui_sim.go does.
var uiTextTxn = []uiEntry{
	// The strips and the legend.
	{"legend.txn.open", [2]string{"open transaction", "진행 중인 트랜잭션"}},
	{"legend.txn.aborted", [2]string{"aborted", "중단(abort)됨"}},
	{"legend.marker.commit", [2]string{"COMMIT marker", "COMMIT 마커"}},
	{"legend.marker.abort", [2]string{"ABORT marker", "ABORT 마커"}},
	{"legend.lso", [2]string{"LSO (last stable offset)", "LSO(마지막 안정 오프셋)"}},
	{"txn.open.tip", [2]string{
		"Records of a transaction still open in this replica's log: no COMMIT or ABORT marker follows them yet. read_committed consumers stop at the LSO before them.",
		"이 복제본 로그에서 아직 끝나지 않은 트랜잭션의 레코드입니다. 뒤에 COMMIT이나 ABORT 마커가 아직 없습니다. read_committed 컨슈머는 이 레코드 앞의 LSO에서 멈춥니다."}},
	{"txn.aborted.tip", [2]string{
		"Records of an aborted transaction: they stay in the log, read_committed consumers skip them (the fetch response lists the transaction from the .txnindex), read_uncommitted ones still read them.",
		"중단(abort)된 트랜잭션의 레코드입니다. 로그에는 남아 있지만 read_committed 컨슈머는 건너뛰고(fetch 응답이 .txnindex에서 찾은 중단 트랜잭션을 알려 줍니다), read_uncommitted 컨슈머는 그대로 읽습니다."}},
	{"txn.commit.tip", [2]string{
		"A COMMIT marker: a control batch the transaction coordinator had the partition's leader write. It takes an offset, but no consumer ever receives it; the transaction's records before it are now readable with read_committed.",
		"COMMIT 마커: 트랜잭션 코디네이터의 요청으로 파티션 리더가 쓴 컨트롤 배치입니다. 오프셋 하나를 차지하지만 컨슈머에게는 전달되지 않습니다. 이 마커 앞에 있는 트랜잭션 레코드는 이제 read_committed로도 읽힙니다."}},
	{"txn.abort.tip", [2]string{
		"An ABORT marker: a control batch the transaction coordinator had the partition's leader write. It takes an offset, but no consumer ever receives it; the transaction's records before it are skipped by read_committed consumers.",
		"ABORT 마커: 트랜잭션 코디네이터의 요청으로 파티션 리더가 쓴 컨트롤 배치입니다. 오프셋 하나를 차지하지만 컨슈머에게는 전달되지 않습니다. 이 마커 앞에 있는 트랜잭션 레코드는 read_committed 컨슈머가 건너뜁니다."}},
	{"lso.tip", [2]string{
		"the last stable offset. read_committed consumers read only below it; it waits at the first offset of the oldest transaction that is still open, or whose marker is not yet below the HW.",
		"마지막 안정 오프셋(LSO)입니다. read_committed 컨슈머는 이 오프셋 아래까지만 읽습니다. 아직 끝나지 않았거나 마커가 HW 아래로 내려오지 않은 가장 오래된 트랜잭션의 첫 오프셋에 머뭅니다."}},

	// A transactional producer's card.
	{"txn.id", [2]string{"transactional.id %s", "transactional.id %s"}},
	{"txn.v2", [2]string{"transactions v2 (each end bumps the epoch)", "트랜잭션 v2(끝낼 때마다 에포크 증가)"}},
	{"txn.coordinator", [2]string{"coordinator: broker %d, %s", "코디네이터: 브로커 %d, %s"}},
	{"txn.coordinator.none", [2]string{"coordinator: not known yet (FindCoordinator)", "코디네이터: 아직 모름(FindCoordinator)"}},
	{"txn.partitions", [2]string{"in the transaction: %s", "트랜잭션에 포함: %s"}},
	{"txn.partitions.none", [2]string{"no partition in a transaction", "트랜잭션에 포함된 파티션 없음"}},
	{"txn.pending", [2]string{"waiting for AddPartitionsToTxn: %s", "AddPartitionsToTxn 응답 대기: %s"}},
	{"txn.error", [2]string{"The transaction failed:", "트랜잭션 오류:"}},
	{"txn.state.UNINITIALIZED", [2]string{
		"initTransactions() has not been called yet.",
		"아직 initTransactions()를 호출하지 않았습니다."}},
	{"txn.state.INITIALIZING", [2]string{
		"initTransactions(): the producer asks the transaction coordinator for its producer id and epoch (InitProducerId); a transaction the same transactional.id left unfinished is completed first.",
		"initTransactions(): 프로듀서가 트랜잭션 코디네이터에 producer id와 에포크를 요청하는 중입니다(InitProducerId). 같은 transactional.id가 끝내지 못한 트랜잭션이 있으면 그것부터 마무리합니다."}},
	{"txn.state.READY", [2]string{
		"No transaction is open; beginTransaction() starts the next one.",
		"열린 트랜잭션이 없습니다. beginTransaction()으로 다음 트랜잭션을 시작합니다."}},
	{"txn.state.IN_TRANSACTION", [2]string{
		"A transaction is open: each partition joins it at the coordinator (AddPartitionsToTxn) before its first batch is appended there, sent by the producer or, under transactions v2, by the partition's leader; read_committed consumers see none of its records until it commits.",
		"트랜잭션이 열려 있습니다. 파티션마다 첫 배치가 기록되기 전에 코디네이터에서 트랜잭션에 등록되고(AddPartitionsToTxn: 프로듀서가 보내거나, 트랜잭션 v2에서는 그 파티션의 리더가 보냅니다), 커밋되기 전까지 read_committed 컨슈머에게는 이 레코드들이 보이지 않습니다."}},
	{"txn.state.COMMITTING_TRANSACTION", [2]string{
		"commitTransaction(): the last batches are sent, then EndTxn asks the coordinator to commit. It logs PrepareCommit and has the leader of every partition in the transaction write a COMMIT marker.",
		"commitTransaction(): 남은 배치를 보낸 뒤 EndTxn으로 코디네이터에 커밋을 요청합니다. 코디네이터는 PrepareCommit을 기록하고, 트랜잭션에 포함된 파티션마다 리더에게 COMMIT 마커를 쓰게 합니다."}},
	{"txn.state.ABORTING_TRANSACTION", [2]string{
		"abortTransaction(): EndTxn asks the coordinator to abort. It logs PrepareAbort and has each partition's leader write an ABORT marker; read_committed consumers skip the records.",
		"abortTransaction(): EndTxn으로 코디네이터에 중단을 요청합니다. 코디네이터는 PrepareAbort를 기록하고 파티션마다 리더에게 ABORT 마커를 쓰게 합니다. read_committed 컨슈머는 그 레코드를 건너뜁니다."}},
	{"txn.state.ABORTABLE_ERROR", [2]string{
		"A request in the transaction failed: the transaction can only be aborted (abortTransaction), then the producer may begin another.",
		"트랜잭션 안의 요청이 실패했습니다. 이 트랜잭션은 중단(abortTransaction)할 수밖에 없고, 그다음에 새 트랜잭션을 시작할 수 있습니다."}},
	{"txn.state.FATAL_ERROR", [2]string{
		"A fatal error, such as being fenced by a newer producer with the same transactional.id (a higher epoch): the producer can only be closed.",
		"치명적 오류입니다. 예를 들어 같은 transactional.id를 쓰는 더 새로운 프로듀서(더 높은 에포크)에게 펜싱되었습니다. 이 프로듀서는 닫는 것 말고는 할 수 있는 일이 없습니다."}},

	// A broker card's badge, when its transaction coordinator holds
	// transactional ids (with groups: ui/diagram_groups.go's badge).
	{"coordinator.txn", [2]string{"txn coordinator: %s", "트랜잭션 코디네이터: %s"}},
	{"coordinator.txn.short", [2]string{"txn %s", "트랜잭션 %s"}},
	{"coordinator.of.short", [2]string{"group %s", "그룹 %s"}},
	{"coordinator.txn.n", [2]string{"txn coordinator: %d ids", "트랜잭션 코디네이터: ID %d개"}},
	{"coordinator.both", [2]string{"coordinator: %d groups, %d txn ids", "코디네이터: 그룹 %d개, 트랜잭션 ID %d개"}},
}

func init() {
	for _, e := range uiTextTxn {
		if _, dup := uiText[e.key]; dup {
			panic("i18n: UI string " + e.key + " defined twice")
		}
		uiText[e.key] = e.text
	}
}
