package ui

import "kafkascope/core/player"

// Diagram draws the cluster (placeholder until the diagram is built).
type Diagram struct {
	Player *player.Player
}
