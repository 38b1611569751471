package ui

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/view"
)

// mlSummary is a metadata log entry in one line, in the language of t:
// what the record changes, with topics by name and partitions as topic-N.
func mlSummary(t dgTranslator, e *view.MetaEntry) string {
	if e.Err != "" {
		return fmt.Sprintf(t("ml.undecodable"), e.Err)
	}
	if e.LeaderChange != nil {
		m := e.LeaderChange
		return fmt.Sprintf(t("ml.leaderchange"), m.LeaderID, e.Epoch, mlIDs(m.GrantingVoters))
	}
	switch e.Type {
	case "SnapshotHeader":
		return t("ml.snapshotheader")
	case "SnapshotFooter":
		return t("ml.snapshotfooter")
	}
	topic := func(id metadata.Uuid) string {
		if e.Topic != "" {
			return e.Topic
		}
		return id.String()
	}
	switch r := e.Record.(type) {
	case *metadata.RegisterBrokerRecord:
		if r.Fenced {
			return fmt.Sprintf(t("ml.register.fenced"), r.BrokerID, r.BrokerEpoch)
		}
		return fmt.Sprintf(t("ml.register"), r.BrokerID, r.BrokerEpoch)
	case *metadata.BrokerRegistrationChangeRecord:
		switch {
		case r.InControlledShutdown == metadata.ShutdownRequested:
			return fmt.Sprintf(t("ml.shutdown"), r.BrokerID)
		case r.Fenced == metadata.FencingUnfence:
			return fmt.Sprintf(t("ml.unfence"), r.BrokerID)
		case r.Fenced == metadata.FencingFence:
			return fmt.Sprintf(t("ml.fence"), r.BrokerID)
		}
		return fmt.Sprintf(t("ml.regchange"), r.BrokerID)
	case *metadata.UnregisterBrokerRecord:
		return fmt.Sprintf(t("ml.unregister"), r.BrokerID)
	case *metadata.TopicRecord:
		return fmt.Sprintf(t("ml.topic"), r.Name, r.TopicID)
	case *metadata.PartitionRecord:
		return fmt.Sprintf(t("ml.partition"), topic(r.TopicID)+"-"+strconv.Itoa(int(r.PartitionID)), mlIDs(r.Replicas), r.Leader, mlIDs(r.ISR))
	case *metadata.PartitionChangeRecord:
		return topic(r.TopicID) + "-" + strconv.Itoa(int(r.PartitionID)) + ": " + mlChange(t, r)
	case *metadata.RemoveTopicRecord:
		return fmt.Sprintf(t("ml.removetopic"), topic(r.TopicID))
	case *metadata.ConfigRecord:
		var res string
		switch {
		case r.ResourceType == metadata.ResourceTopic:
			res = fmt.Sprintf(t("ml.config.topic"), r.ResourceName)
		case r.ResourceName == "":
			res = t("ml.config.brokers")
		default:
			res = fmt.Sprintf(t("ml.config.broker"), r.ResourceName)
		}
		if r.Value == nil {
			return fmt.Sprintf(t("ml.config.del"), res, r.Name)
		}
		return fmt.Sprintf(t("ml.config.set"), res, r.Name, *r.Value)
	case *metadata.FeatureLevelRecord:
		return fmt.Sprintf(t("ml.feature"), r.Name, r.FeatureLevel)
	case *metadata.BeginTransactionRecord:
		if r.Name != nil && *r.Name != "" {
			return fmt.Sprintf(t("ml.txn.begin.named"), *r.Name)
		}
		return t("ml.txn.begin")
	case *metadata.EndTransactionRecord:
		return t("ml.txn.end")
	case *metadata.ZkMigrationStateRecord:
		if r.State == metadata.ZkMigrationNone {
			return t("ml.zk.none")
		}
		return fmt.Sprintf(t("ml.zk.state"), r.State)
	case *metadata.NoOpRecord:
		if n := e.Count(); n > 1 {
			return fmt.Sprintf(t("ml.noops"), n)
		}
		return t("ml.noop")
	}
	if e.Record != nil {
		return e.Record.Describe()
	}
	return ""
}

// mlChange lists what a PartitionChangeRecord changes.
func mlChange(t dgTranslator, r *metadata.PartitionChangeRecord) string {
	var parts []string
	switch {
	case r.Leader == metadata.NoLeader:
		parts = append(parts, t("ml.change.noleader"))
	case r.Leader != metadata.NoLeaderChange:
		parts = append(parts, fmt.Sprintf(t("ml.change.leader"), r.Leader))
	}
	if r.ISR != nil {
		parts = append(parts, fmt.Sprintf(t("ml.change.isr"), mlIDs(r.ISR)))
	}
	if r.Replicas != nil {
		parts = append(parts, fmt.Sprintf(t("ml.change.replicas"), mlIDs(r.Replicas)))
	}
	if len(r.AddingReplicas) > 0 {
		parts = append(parts, fmt.Sprintf(t("ml.change.adding"), mlIDs(r.AddingReplicas)))
	}
	if len(r.RemovingReplicas) > 0 {
		parts = append(parts, fmt.Sprintf(t("ml.change.removing"), mlIDs(r.RemovingReplicas)))
	}
	switch r.LeaderRecoveryState {
	case metadata.LeaderRecovered:
		if r.Leader == metadata.NoLeaderChange {
			parts = append(parts, t("ml.change.recovered"))
		}
	case metadata.LeaderRecovering:
		parts = append(parts, t("ml.change.recovering"))
	}
	if len(parts) == 0 {
		return t("ml.change.same")
	}
	return strings.Join(parts, ", ")
}

// mlIDs writes broker ids as a list reads in prose: 3,1 (an empty list is
// "-").
func mlIDs(ids []int32) string {
	if len(ids) == 0 {
		return "-"
	}
	return sim.FormatIDs(ids)
}
