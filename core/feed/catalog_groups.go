package feed

// CatGroup: consumer groups, their coordinator and their members.
const CatGroup = "group"

// The group coordinator's and the consumers' events (core/groupcoordinator,
// core/broker/groups.go, core/client/consumer*.go).
func init() {
	for _, e := range []entry{
		{"group.offsets-topic", template{CatGroup,
			"Broker {broker} could not create __consumer_offsets: {error}. Consumers get COORDINATOR_NOT_AVAILABLE until it exists.",
			"브로커 {broker}가 __consumer_offsets를 만들지 못했습니다: {error}. 만들어질 때까지 컨슈머는 COORDINATOR_NOT_AVAILABLE을 받습니다."}},
		{"group.loaded", template{CatGroup,
			"Broker {broker} leads {tp} and loaded its {groups} group(s) and {offsets} committed offset(s) from the log: it is now their coordinator.",
			"브로커 {broker}가 {tp}의 리더가 되어 로그에서 그룹 {groups}개와 커밋된 오프셋 {offsets}개를 읽었습니다. 이제 이 그룹들의 코디네이터입니다."}},
		{"group.rebalance", template{CatGroup,
			"Group {group} starts rebalancing after generation {generation}: {reason}.",
			"그룹 {group}이(가) 제너레이션 {generation} 다음 리밸런스를 시작합니다: {reason}."}},
		{"group.generation", template{CatGroup,
			"Group {group} formed generation {generation}: protocol {protocol}, leader {leader}, which now computes the assignment.",
			"그룹 {group}의 제너레이션 {generation}이 만들어졌습니다. 프로토콜 {protocol}, 리더 {leader}가 파티션 할당을 계산합니다."}},
		{"group.emptied", template{CatGroup,
			"Group {group} has no members left (generation {generation}); its committed offsets stay.",
			"그룹 {group}에 남은 멤버가 없습니다(제너레이션 {generation}). 커밋된 오프셋은 남아 있습니다."}},
		{"group.stable", template{CatGroup,
			"Group {group} is Stable in generation {generation} with {members} member(s): the leader's assignment was stored and handed out.",
			"그룹 {group}이(가) 제너레이션 {generation}에서 멤버 {members}명으로 Stable 상태입니다. 리더의 할당을 저장하고 나눠 주었습니다."}},
		{"group.member-expired", template{CatGroup,
			"Group {group}'s coordinator heard nothing from member {member} for session.timeout.ms and removed it.",
			"그룹 {group}의 코디네이터가 session.timeout.ms 동안 멤버 {member}의 소식을 듣지 못해 멤버에서 뺐습니다."}},
		{"group.member-left", template{CatGroup,
			"Member {member} left group {group} (LeaveGroup).",
			"멤버 {member}가 그룹 {group}을(를) 떠났습니다(LeaveGroup)."}},
		{"consumer.coordinator", template{CatGroup,
			"Consumer {client} found group {group}'s coordinator: broker {coordinator}.",
			"컨슈머 {client}가 그룹 {group}의 코디네이터를 찾았습니다: 브로커 {coordinator}."}},
		{"consumer.coordinator-unknown", template{CatGroup,
			"Consumer {client} lost its group coordinator ({cause}) and looks for it again.",
			"컨슈머 {client}가 그룹 코디네이터를 잃어({cause}) 다시 찾습니다."}},
		{"consumer.assigned", template{CatGroup,
			"Consumer {client} got {partitions} partition(s) of group {group} in generation {generation}.",
			"컨슈머 {client}가 그룹 {group}의 제너레이션 {generation}에서 파티션 {partitions}개를 받았습니다."}},
		{"consumer.leave", template{CatGroup,
			"Consumer {client} leaves group {group}: {reason}.",
			"컨슈머 {client}가 그룹 {group}을(를) 떠납니다: {reason}."}},
		{"consumer.commit", template{CatGroup,
			"Consumer {client} commits group {group}'s offsets {offsets}.",
			"컨슈머 {client}가 그룹 {group}의 오프셋 {offsets}을(를) 커밋합니다."}},
	} {
		catalog[e.key] = e.template
	}
}
