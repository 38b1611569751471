package ui

import (
	"fmt"
	"strings"

	"kafkascope/core/view"
)

// A transactional producer's card: its state under Kafka's name in the
// card's head (seen folded too, with a tooltip that says what the state
// means), and in its body its transactional.id, whether it uses
// transactions v2 (whose every end bumps the epoch its idempotence line
// shows), the coordinator holding
// it with the transaction's state there, the partitions in the
// transaction, and the error of an error state. A broker card's badge
// names the transactional ids its transaction coordinator holds.

// dgTxnPartsShown bounds the partitions named on a card's line.
const dgTxnPartsShown = 4

// dgTxnStateClass is the state pill's class: an open transaction in the
// accent colour, one ending in the warning colour, an error in the bad
// one (the card's border too: dgProducer.Class).
func dgTxnStateClass(state string) string {
	switch state {
	case "IN_TRANSACTION":
		return "kd-ts kd-ts-open"
	case "COMMITTING_TRANSACTION", "ABORTING_TRANSACTION", "INITIALIZING":
		return "kd-ts kd-ts-ending"
	case "ABORTABLE_ERROR", "FATAL_ERROR":
		return "kd-ts kd-ts-error"
	}
	return "kd-ts"
}

// txnHead fills the card's state pill and class (folded or open).
func dgTxnHead(c *dgProducer, p view.Producer, t dgTranslator) {
	c.Txn, c.TxnClass, c.TxnTip, c.Class = "", "", "", "kd-cc kd-prod"
	if p.Txn.TransactionalID == "" {
		return
	}
	c.Txn, c.TxnClass, c.TxnTip = p.Txn.State, dgTxnStateClass(p.Txn.State), t("txn.state."+p.Txn.State)
	if p.Txn.Error != "" || strings.HasSuffix(p.Txn.State, "_ERROR") {
		c.Class += " kd-prod-error"
	}
}

// txnBody fills the card's transaction line, in parts that wrap whole
// (a partition's name is not broken at its dash), and its error: Kafka's
// exception without its package, the whole of it in the tooltip.
func dgTxnBody(c *dgProducer, p view.Producer, s *view.Snapshot, t dgTranslator) {
	c.TxnParts, c.TxnErr, c.TxnErrTip, c.TxnErrLabel = c.TxnParts[:0], "", "", ""
	tx := p.Txn
	if tx.TransactionalID == "" {
		return
	}
	parts := []string{fmt.Sprintf(t("txn.id"), tx.TransactionalID)}
	if tx.V2 {
		parts = append(parts, t("txn.v2"))
	}
	coord := t("txn.coordinator.none")
	for _, held := range s.Transactions {
		if held.TransactionalID == tx.TransactionalID {
			coord = fmt.Sprintf(t("txn.coordinator"), held.Coordinator, held.State)
			break
		}
	}
	parts = append(parts, coord)
	if len(tx.Partitions) > 0 {
		parts = append(parts, fmt.Sprintf(t("txn.partitions"), dgNames(tx.Partitions, t)))
	} else if tx.State == "IN_TRANSACTION" || len(tx.Pending) == 0 {
		parts = append(parts, t("txn.partitions.none"))
	}
	if len(tx.Pending) > 0 {
		parts = append(parts, fmt.Sprintf(t("txn.pending"), dgNames(tx.Pending, t)))
	}
	for i, part := range parts {
		if i > 0 {
			part = " · " + part
		}
		c.TxnParts = append(c.TxnParts, part)
	}
	if tx.Error != "" {
		c.TxnErr, c.TxnErrTip, c.TxnErrLabel = dgShortException(tx.Error), tx.Error, t("txn.error")
	}
}

// dgShortException is a Java exception's text without its class's
// package: org.apache.kafka.common.errors.InvalidProducerEpochException:
// ... is InvalidProducerEpochException: ...
func dgShortException(s string) string {
	name, rest, ok := strings.Cut(s, ":")
	if i := strings.LastIndexByte(name, '.'); ok && i >= 0 && !strings.Contains(name, " ") {
		return name[i+1:] + ":" + rest
	}
	return s
}

// dgNames is a short list of names: the first few, then how many more.
func dgNames(names []string, t dgTranslator) string {
	if len(names) <= dgTxnPartsShown {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:dgTxnPartsShown-1], ", ") + " " + fmt.Sprintf(t("clients.more"), len(names)-dgTxnPartsShown+1)
}

// dgCoordinatorBadge is the badge text of a broker whose coordinators
// hold groups groups (the first named firstGroup) and txns transactional
// ids (the first firstTxn), at most room wide at the badge's 10 px (a
// narrow card names less of the group or id); "" for none.
func dgCoordinatorBadge(groups int, firstGroup string, txns int, firstTxn string, room float64, t dgTranslator) string {
	// The long form, then the short one ("txn billing": the card's
	// tooltip says it in full), each with less of the name.
	named := func(key, short, name string) string {
		return dgFit(room, dgBadgePx, fmt.Sprintf(t(key), dgCut(name, 14)), fmt.Sprintf(t(key), dgCut(name, 8)),
			fmt.Sprintf(t(short), dgCut(name, 14)), fmt.Sprintf(t(short), dgCut(name, 8)), fmt.Sprintf(t(short), dgCut(name, 4)))
	}
	switch {
	case groups > 0 && txns > 0:
		return dgFit(room, dgBadgePx, fmt.Sprintf(t("coordinator.both"), groups, txns))
	case groups == 1:
		return named("coordinator.of", "coordinator.of.short", firstGroup)
	case groups > 1:
		return dgFit(room, dgBadgePx, fmt.Sprintf(t("coordinator.n"), groups))
	case txns == 1:
		return named("coordinator.txn", "coordinator.txn.short", firstTxn)
	case txns > 1:
		return dgFit(room, dgBadgePx, fmt.Sprintf(t("coordinator.txn.n"), txns))
	}
	return ""
}

// dgBadgePx is the coordinator badge's font size (diagram.css
// .kd-coord-text).
const dgBadgePx = 10.0

// dgTxnsOn counts the transactional ids broker id's coordinator holds.
func dgTxnsOn(s *view.Snapshot, id int32) (n int, first string) {
	for _, tr := range s.Transactions {
		if tr.Coordinator == id {
			if n == 0 {
				first = tr.TransactionalID
			}
			n++
		}
	}
	return n, first
}
