package ui

import (
	"strconv"

	"kafkascope/core/view"
)

// Transactions on the replica strips. A cell is data, a record of an open
// transaction (no marker after it yet in that replica's log), a record of
// an aborted one (dimmed and struck through: read_committed consumers skip
// it), or a transaction marker, COMMIT or ABORT (a control batch: it takes
// an offset, and no consumer receives it). A committed transaction's
// records are drawn as data: everyone reads them, and the marker after
// them says they were a transaction's. Where a replica's last stable
// offset is below its HW, a line like the HW's marks it, labelled LSO on
// its left (the HW's label is on its right, so the two never overlap).
//
// Each kind is part of a cell's class, so cells of one kind and epoch
// stay one path, and a run's tooltip says what its kind means.

// dgTxnKind is a cell's kind as the strip draws it.
type dgTxnKind uint8

const (
	dgTxnData dgTxnKind = iota
	dgTxnOpen
	dgTxnAborted
	dgTxnCommitMarker
	dgTxnAbortMarker
	dgTxnKinds
)

// dgTxnClass is added to a cell's class for its kind; dgTxnTip is the key
// of its run's tooltip.
var (
	dgTxnClass = [dgTxnKinds]string{"", " kd-txn-open", " kd-txn-aborted", " kd-marker kd-marker-commit", " kd-marker kd-marker-abort"}
	dgTxnTip   = [dgTxnKinds]string{"", "txn.open.tip", "txn.aborted.tip", "txn.commit.tip", "txn.abort.tip"}
)

func dgCellKind(c view.Cell) dgTxnKind {
	switch {
	case c.Marker && c.Txn == view.TxnCommitted:
		return dgTxnCommitMarker
	case c.Marker:
		return dgTxnAbortMarker
	case c.Txn == view.TxnOpen:
		return dgTxnOpen
	case c.Txn == view.TxnAborted:
		return dgTxnAborted
	}
	return dgTxnData
}

// dgTxnSeen is what of transactions the frame draws, for the legend.
type dgTxnSeen [dgTxnKinds + 1]bool // the kinds, and the LSO (dgTxnKinds)

// dgLegendItem is one entry of the legend's transactions part.
type dgLegendItem struct {
	Class string // the swatch's
	Label string
	Tip   string
}

// legendTxns lists the transactions' entries of the legend: only what the
// frame draws (most clusters have no transaction, and their legend stays
// as it was).
func (l *dgLayout) legendTxns(t dgTranslator) {
	l.TxnLegend = l.TxnLegend[:0]
	add := func(seen bool, class, label, tip string) {
		if seen {
			l.TxnLegend = append(l.TxnLegend, dgLegendItem{Class: class, Label: t(label), Tip: t(tip)})
		}
	}
	add(l.txnSeen[dgTxnOpen], "kd-lg-cell kd-lg-txn-open", "legend.txn.open", "txn.open.tip")
	add(l.txnSeen[dgTxnAborted], "kd-lg-cell kd-lg-txn-aborted", "legend.txn.aborted", "txn.aborted.tip")
	add(l.txnSeen[dgTxnCommitMarker], "kd-lg-cell kd-lg-marker-commit", "legend.marker.commit", "txn.commit.tip")
	add(l.txnSeen[dgTxnAbortMarker], "kd-lg-cell kd-lg-marker-abort", "legend.marker.abort", "txn.abort.tip")
	add(l.txnSeen[dgTxnKinds], "kd-lg-lso", "legend.lso", "lso.tip")
}

// The middle of a strip (dgGeomFull's and dgGeomCompact's StripY +
// StripH/2), where an aborted record is struck through.
const (
	dgStripMidFull    = "25"
	dgStripMidCompact = "15"
)

// strike adds to l.strikeBuf a line through the middle of the cell at
// slot: an aborted record, struck out.
func (l *dgLayout) strike(slot int, compact bool) {
	mid := dgStripMidFull
	if compact {
		mid = dgStripMidCompact
	}
	l.strikeBuf = append(l.strikeBuf, 'M')
	l.strikeBuf = append(l.strikeBuf, l.cellX[slot]...)
	l.strikeBuf = append(l.strikeBuf, ' ')
	l.strikeBuf = append(l.strikeBuf, mid...)
	l.strikeBuf = append(l.strikeBuf, 'h')
	l.strikeBuf = append(l.strikeBuf, l.cellWs...)
}

// lso places a replica's LSO line when it is below its HW, and says so in
// its caption when the strip has room.
func (l *dgLayout) lso(rv *dgReplica, rp view.Replica, slotX func(int64) float64, t dgTranslator) {
	rv.LSO = rp.Present && rp.LSO < rp.HW
	rv.LSOX, rv.LSOTextX, rv.LSOTip = "", "", ""
	if !rv.LSO {
		return
	}
	l.txnSeen[dgTxnKinds] = true
	x := slotX(rp.LSO)
	rv.LSOX, rv.LSOTextX = dgf(x), dgf(x-2.5)
	rv.LSOTip = "LSO " + dgItoa(rp.LSO) + " · HW " + dgItoa(rp.HW) + ": " + t("lso.tip")
	if rv.CaptionR != "" {
		withLSO := rv.CaptionR + " · LSO " + dgItoa(rp.LSO)
		if dgTextWidth(rv.CaptionL, dgCaptionPx)+dgTextWidth(withLSO, dgCaptionPx)+12 <= l.stripW {
			rv.CaptionR = withLSO
		}
	}
	rv.Tip += ", LSO " + strconv.FormatInt(rp.LSO, 10)
}

// dgCaptionPx is the captions' font size (diagram.css .kd-caption).
const dgCaptionPx = 10.0
