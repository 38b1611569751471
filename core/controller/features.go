package controller

import (
	"fmt"
	"slices"
	"strconv"

	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// handleUpdateFeatures is QuorumController.updateFeatures (KIP-584):
// FeatureControlManager.updateFeatures decides each feature, in the order
// of the HashMap<String, Short> the request fills; from Kafka 4.0 through
// ConfigurationControlManager.updateFeatures, which adds the ELR safety
// records when the request turns eligible leader replicas on.
//
// Kafka 3.8 answers per feature and writes the records of the features
// that passed, even when others failed. From 4.0 the first failure fails
// the whole request, with nothing written, and the answer's top-level
// error names it; a v2 answer has no per-feature results. validateOnly
// checks and writes nothing.
func (c *Controller) handleUpdateFeatures(env *sim.Env, from sim.Addr, req *protocol.UpdateFeaturesRequest) {
	resp := &protocol.UpdateFeaturesResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	var names []string
	updates := map[string]protocol.FeatureUpdateKey{}
	for _, u := range req.FeatureUpdates {
		if _, dup := updates[u.Feature]; !dup {
			names = append(names, u.Feature)
		}
		updates[u.Feature] = u
	}
	order := jdk.HashSetOrder(names)
	var recs []metadata.Record

	if !c.cfg.Release.Version.AtLeast(4, 0) {
		sorted := slices.Clone(names)
		slices.Sort(sorted) // the results TreeMap
		errs := map[string]featureError{}
		for _, n := range order {
			u := updates[n]
			errs[n] = c.updateFeature(n, u.MaxVersionLevel, u.UpgradeType, &recs, nil)
		}
		for _, n := range sorted {
			r := protocol.UpdatableFeatureResult{Feature: n, ErrorCode: errs[n].code}
			if errs[n].code != protocol.NONE {
				msg := errs[n].msg
				r.ErrorMessage = &msg
			}
			resp.Results = append(resp.Results, r)
		}
		if !req.ValidateOnly {
			c.appendRecords(env, recs...)
		}
		c.reply(env, from, resp)
		return
	}

	proposed := map[string]int16{}
	for n, l := range c.image.Features {
		proposed[n] = l
	}
	for _, n := range names {
		proposed[n] = updates[n].MaxVersionLevel
	}
	for _, n := range order {
		u := updates[n]
		if e := c.updateFeature(n, u.MaxVersionLevel, u.UpgradeType, &recs, proposed); e.code != protocol.NONE {
			msg := "The update failed for all features since the following feature had an error: " + e.msg
			resp.ErrorCode, resp.ErrorMessage = e.code, &msg
			c.reply(env, from, resp)
			return
		}
	}
	if req.Version <= 1 {
		for _, u := range req.FeatureUpdates {
			resp.Results = append(resp.Results, protocol.UpdatableFeatureResult{Feature: u.Feature})
		}
	}
	if !req.ValidateOnly {
		if u, ok := updates[release.EligibleLeaderReplicasFeature]; ok && u.MaxVersionLevel > 0 {
			recs = append(c.elrSafetyRecords(), recs...)
		}
		c.appendRecords(env, recs...)
	}
	c.reply(env, from, resp)
}

// featureError is an ApiError: a code and its message.
type featureError struct {
	code protocol.ErrorCode
	msg  string
}

// invalidUpdateVersion is FeatureControlManager.invalidUpdateVersion.
func invalidUpdateVersion(name string, level int16, why string) featureError {
	return featureError{protocol.INVALID_UPDATE_VERSION, fmt.Sprintf("Invalid update version %d for feature %s. %s", level, name, why)}
}

// invalidMetadataVersion is FeatureControlManager.invalidMetadataVersion.
func invalidMetadataVersion(level int16, why string) featureError {
	return featureError{protocol.INVALID_UPDATE_VERSION, fmt.Sprintf("Invalid metadata.version %d. %s", level, why)}
}

// updateFeature is FeatureControlManager.updateFeature: the checks in
// Kafka's order, then the record. proposed (4.x) is every feature's level
// as the whole update would leave it, for the dependency checks.
func (c *Controller) updateFeature(name string, level int16, upgradeType int8, recs *[]metadata.Record, proposed map[string]int16) featureError {
	rel := c.cfg.Release
	kraft := rel.Version.AtLeast(4, 0) && name == "kraft.version"
	if upgradeType < protocol.UpgradeTypeUpgrade || upgradeType > protocol.UpgradeTypeUnsafeDowngrade {
		return invalidUpdateVersion(name, level, "The controller does not support the given upgrade type.")
	}
	// kraft.version is the raft layer's (KRaftVersionAccessor): a static
	// controller.quorum.voters quorum, every kafkascope cluster's, is at 0.
	current := c.image.Features[name]
	if kraft {
		current = 0
	}
	if level < 0 {
		return invalidUpdateVersion(name, level, "A feature version cannot be less than 0.")
	}
	if why := c.reasonNotSupported(name, level); why != "" {
		return invalidUpdateVersion(name, level, why)
	}
	switch {
	case level < current && upgradeType == protocol.UpgradeTypeUpgrade:
		return invalidUpdateVersion(name, level, "Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade.")
	case level > current && upgradeType != protocol.UpgradeTypeUpgrade:
		return invalidUpdateVersion(name, level, "Can't downgrade to a newer version.")
	}
	switch {
	case name == release.MetadataVersionFeature:
		return c.updateMetadataVersion(level, upgradeType == protocol.UpgradeTypeUnsafeDowngrade, recs)
	case kraft:
		if upgradeType != protocol.UpgradeTypeUpgrade {
			if level != current {
				return invalidUpdateVersion(name, level, "Can't downgrade the version of this feature.")
			}
			return featureError{}
		}
		if level == current {
			// KafkaRaftClient.upgradeKRaftVersion: already at that
			// version, a no-op; the NoOpRecord gives the request an
			// offset to wait for.
			*recs = append(*recs, &metadata.NoOpRecord{})
			return featureError{}
		}
		// Upgrading a static quorum to kraft.version 1 (KIP-853's
		// dynamic quorum) writes raft control records kafkascope does
		// not model.
		return invalidUpdateVersion(name, level, "kafkascope does not simulate moving a static controller quorum to a dynamic one (KIP-853).")
	}
	if rel.Version.AtLeast(4, 0) {
		if why := release.FeatureValidationProblem(name, level, proposed); why != "" {
			return invalidUpdateVersion(name, level, why)
		}
	}
	*recs = append(*recs, &metadata.FeatureLevelRecord{Name: name, FeatureLevel: level})
	return featureError{}
}

// reasonNotSupported is FeatureControlManager.reasonNotSupported: the
// level must be in the range this controller supports, then in every
// registered broker's (QuorumFeatures.reasonNotSupported; a feature a node
// does not list supports 0 only). Kafka then checks every voter's
// controller registration (from 3.7-IV0); kafkascope's controllers, all
// of the cluster's release, register no RegisterControllerRecord and
// support what this one does. Brokers are visited in id order.
func (c *Controller) reasonNotSupported(name string, level int16) string {
	local := featureRange(name, c.cfg.Release.Features)
	if why := rangeProblem(level, fmt.Sprintf("Local controller %d", c.cfg.NodeID), local); why != "" {
		return why
	}
	for _, id := range c.image.BrokerIDs() {
		bf := c.image.Brokers[id].Features
		if bf == nil {
			bf = metadata.DefaultBrokerFeatures()
		}
		r := [2]int16{}
		for _, f := range bf {
			if f.Name == name {
				r = [2]int16{f.MinSupportedVersion, f.MaxSupportedVersion}
			}
		}
		if why := rangeProblem(level, "Broker "+strconv.Itoa(int(id)), r); why != "" {
			return why
		}
	}
	return ""
}

func featureRange(name string, fs []release.Feature) [2]int16 {
	for _, f := range fs {
		if f.Name == name {
			return [2]int16{f.MinLevel, f.MaxLevel}
		}
	}
	return [2]int16{} // QuorumFeatures.DISABLED
}

// rangeProblem is QuorumFeatures.reasonNotSupported, with the range
// written as VersionRange.toString.
func rangeProblem(level int16, what string, r [2]int16) string {
	if level >= r[0] && level <= r[1] {
		return ""
	}
	if r[1] == 0 {
		return what + " does not support this feature."
	}
	text := strconv.Itoa(int(r[0]))
	if r[0] != r[1] {
		text += "-" + strconv.Itoa(int(r[1]))
	}
	return what + " only supports versions " + text
}

// updateMetadataVersion is FeatureControlManager.updateMetadataVersion at
// each release: a downgrade across a level that changed the metadata's
// records is refused, as Kafka refuses it ("Unsafe metadata downgrade is
// not supported in this version", KAFKA-13896);
// 3.8 also refuses a level below 3.3-IV0, the first with
// FeatureLevelRecord.
func (c *Controller) updateMetadataVersion(level int16, unsafe bool, recs *[]metadata.Record) featureError {
	rel := c.cfg.Release
	current := c.image.Features[release.MetadataVersionFeature]
	if !rel.Version.AtLeast(4, 0) && level < 4 {
		return invalidMetadataVersion(level, "Unable to set a metadata.version less than 3.3-IV0")
	}
	if level < current && rel.MetadataChanged(current, level) {
		why := "Refusing to perform the requested downgrade because it might delete metadata information."
		if unsafe {
			why = "Unsafe metadata downgrade is not supported in this version."
		}
		if rel.Version.AtLeast(4, 3) {
			return featureError{protocol.INVALID_UPDATE_VERSION,
				fmt.Sprintf("Unsupported metadata.version downgrade from %d to %d. %s", current, level, why)}
		}
		return invalidMetadataVersion(level, why)
	}
	*recs = append(*recs, &metadata.FeatureLevelRecord{Name: release.MetadataVersionFeature, FeatureLevel: level})
	return featureError{}
}

// elrSafetyRecords is ConfigurationControlManager.maybeGenerateElrSafetyRecords
// (KAFKA-16540): eligible leader replicas rest on one cluster-wide
// min.insync.replicas, so turning them on writes the cluster-level value
// if there is none (the controller's static one, parsed as an INT and
// written back: " 2" is stored as "2") and removes every broker-level
// one, brokers in id order. Written at bootstrap (an empty image) and by
// an update that enables the feature.
func (c *Controller) elrSafetyRecords() []metadata.Record {
	var recs []metadata.Record
	if _, ok := c.image.BrokerConfig("")["min.insync.replicas"]; !ok {
		v := strconv.FormatInt(c.cfg.Static.BrokerInt("min.insync.replicas"), 10)
		recs = append(recs, &metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: "", Name: "min.insync.replicas", Value: &v})
	}
	var ids []int
	for res, m := range c.image.Configs {
		if res.Type != metadata.ResourceBroker || res.Name == "" {
			continue
		}
		if _, ok := m["min.insync.replicas"]; !ok {
			continue
		}
		if id, err := strconv.Atoi(res.Name); err == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		recs = append(recs, &metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: strconv.Itoa(id), Name: "min.insync.replicas"})
	}
	return recs
}
