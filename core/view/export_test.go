package view

// Cells is cells, for the external tests (large_test.go).
var Cells = cells

// IsZkServer is isZkServer, for zookeeper_test.go.
var IsZkServer = isZkServer
