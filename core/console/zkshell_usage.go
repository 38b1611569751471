package console

import "sort"

// zkCommandMap is ZooKeeperMain.commandMap (release-3.5.9): every command
// the shell knows and its option string, the CliCommands' (each
// cli/*Command.java's super(cmdStr, optionStr)) and the five the shell
// handles itself.
var zkCommandMap = map[string]string{
	"connect":       "host:port",
	"history":       "",
	"redo":          "cmdno",
	"printwatches":  "on|off",
	"quit":          "",
	"close":         "",
	"create":        "[-s] [-e] [-c] [-t ttl] path [data] [acl]",
	"delete":        "[-v version] path",
	"deleteall":     "path",
	"rmr":           "path", // DeleteAllCommand("rmr"), "Depricated: rmr"
	"set":           "[-s] [-v version] path data",
	"get":           "[-s] [-w] path",
	"ls":            "[-s] [-w] [-R] path",
	"ls2":           "path [watch]",
	"getAcl":        "[-s] path",
	"setAcl":        "[-s] [-v version] [-R] path acl",
	"stat":          "[-w] path",
	"sync":          "path",
	"setquota":      "-n|-b val path",
	"listquota":     "path",
	"delquota":      "[-n|-b] path",
	"addauth":       "scheme auth",
	"reconfig":      "[-s] [-v version] [[-file path] | [-members serverID=host:port1:port2;port3[,...]*]] | [-add serverId=host:port1:port2;port3[,...]]* [-remove serverId[,...]*]",
	"config":        "[-c] [-w] [-s]",
	"removewatches": "path [-c|-d|-a] [-l]",
}

// zkUsageStr is CliCommand.getUsageStr: the command and its option string.
func zkUsageStr(cmd string) string { return cmd + " " + zkCommandMap[cmd] }

// kafkaTLSUsage is ZooKeeperMainWithTlsSupportForKafka.kafkaTlsUsage
// (core/src/main/scala/org/apache/zookeeper/, tag 2.8.0), printed on
// stderr: the header, then "\t" + command + " " + options for each
// command in sorted order (a trailing space when there are no options).
func kafkaTLSUsage() []string {
	cmds := make([]string, 0, len(zkCommandMap))
	for c := range zkCommandMap {
		cmds = append(cmds, c)
	}
	sort.Strings(cmds)
	out := []string{"ZooKeeper -server host:port [-zk-tls-config-file <file>] cmd args"}
	for _, c := range cmds {
		out = append(out, "\t"+zkUsageStr(c))
	}
	return out
}
