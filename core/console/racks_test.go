package console

import (
	"slices"
	"testing"
)

// cluster create --racks gives each broker its broker.rack: kafka-configs.sh
// --describe --all lists it as a static broker config, as Kafka does for a
// broker started with broker.rack in its server.properties.
func TestRacksAreBrokerConfigs(t *testing.T) {
	s := NewSession()
	s.Exec("cluster create --brokers 4 --racks a,b,c", nil)
	for id, want := range map[string]string{"1": "a", "2": "b", "3": "c", "4": "a"} {
		out := s.Exec("kafka-configs.sh --describe --entity-type brokers --entity-name "+id+" --all", nil)
		line := "  broker.rack=" + want + " sensitive=false synonyms={STATIC_BROKER_CONFIG:broker.rack=" + want + "}"
		if !slices.Contains(out, line) {
			t.Errorf("broker %s: no %q in\n%v", id, line, out)
		}
	}
	s.Exec("cluster create --brokers 2", nil)
	out := s.Exec("kafka-configs.sh --describe --entity-type brokers --entity-name 1 --all", nil)
	if !slices.Contains(out, "  broker.rack=null sensitive=false synonyms={}") {
		t.Errorf("a broker without a rack: %v", out)
	}
}
