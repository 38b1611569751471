package ui

import (
	"fmt"
	"slices"
	"strconv"

	"kafkascope/core/i18n"
	"kafkascope/core/view"
)

// dkPageCache is one row of the page-cache table: a broker's machine, its
// cache and what the fetch responses it sent found there. The raw numbers
// ride along as data attributes (what the tests compare with the engine).
type dkPageCache struct {
	Broker      string
	Name        string
	Class       string
	Cached      string
	Dirty       string
	Hits        string
	Misses      string
	Sent        string
	CachedBytes string
	DirtyBytes  string
	SentBytes   string
}

// dkPageCacheKey is what the rows are drawn from.
type dkPageCacheKey struct {
	broker int32
	lang   i18n.Lang
}

// drawPageCaches lays out every machine's page cache, pcs, read from the
// engine every frame the panel is drawn (a handful of numbers per node,
// Player.PageCaches), again only when they changed.
func (c *Disk) drawPageCaches(pcs []view.PageCache) {
	k := dkPageCacheKey{c.Broker, c.App.Player.Lang}
	if k == c.pcKey && slices.Equal(pcs, c.pcOf) {
		return
	}
	c.pcKey, c.pcOf = k, pcs
	c.pcs = c.pcs[:0]
	for _, pc := range pcs {
		r := dkPageCache{
			Broker: strconv.Itoa(int(pc.Broker)), Name: "kafka-" + strconv.Itoa(int(pc.Broker)), Class: "dk-pc-row",
			Cached: fmt.Sprintf(c.t("disk.pc.of"), dkBytes(pc.CachedBytes), dkBytes(pc.CapacityBytes)),
			Dirty:  dkBytes(pc.DirtyBytes), Hits: strconv.FormatInt(pc.HitPages, 10), Misses: strconv.FormatInt(pc.MissPages, 10),
			Sent: dkBytes(pc.SentBytes), CachedBytes: strconv.FormatInt(pc.CachedBytes, 10),
			DirtyBytes: strconv.FormatInt(pc.DirtyBytes, 10), SentBytes: strconv.FormatInt(pc.SentBytes, 10),
		}
		if pc.State != "running" {
			r.Name += " · " + c.t("state."+pc.State)
		}
		if pc.Broker == c.Broker {
			r.Class += " dk-pc-on dk-rrow-on" // dk-rrow-on: the style sheet's mark of a chosen row
		}
		c.pcs = append(c.pcs, r)
	}
}
