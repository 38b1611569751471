package console

import (
	"kafkascope/core/client"
	"kafkascope/core/sim"
)

// constructProducer is what kafka-producer-perf-test.sh and
// kafka-verifiable-producer.sh share once their properties are read:
// KafkaProducer's constructor (the config checks, then the bootstrap
// servers' resolution, then the config warnings it logs). It returns the
// bootstrap addresses, or ok false when the tool has already ended with
// the error printed.
func (t *toolRun) constructProducer(cfg client.ProducerConfig, props map[string]string, warnings []string, cerr error) ([]sim.Addr, bool) {
	if cerr != nil {
		t.mainException("org.apache.kafka.common.config.ConfigException: " + cerr.Error())
		return nil, false
	}
	bootstrap, berr := t.s.resolveBootstrap(props["bootstrap.servers"])
	if berr != nil {
		t.bootstrapFailed(berr, `Exception in thread "main" org.apache.kafka.common.KafkaException: Failed to construct kafka producer`,
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil, false
	}
	for _, w := range warnings {
		msg, logger := producerWarning(cfg.ClientID, w)
		t.println(client.FormatLogLine(t.s.world().Now(), client.LevelWarn, msg, logger))
	}
	return bootstrap, true
}
