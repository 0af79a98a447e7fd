package fakediscord

// Out-of-order delivery. Discord does not promise that a message's events arrive in
// the order they happened: a MESSAGE_DELETE or MESSAGE_UPDATE may come before the
// MESSAGE_CREATE it follows. HoldNext and ReleaseHeld let a test make that happen:
//
//	fake.HoldNext("MESSAGE_CREATE")
//	id := fake.MessageCreate(ch, guild, gm, text) // stored, its dispatch held
//	fake.MessageDelete(ch, id)                    // dispatched now
//	fake.ReleaseHeld()                            // the create arrives last
//
// A held dispatch is numbered when it is released, so the bot sees sequence numbers in
// order, as Discord's own late deliveries are.

// holds is the gateway's held dispatches, guarded by Server.mu.
type holds struct {
	armed []string // event names whose next dispatch is held, in the order asked
	held  []event  // held dispatches, oldest first
}

// keep holds ev when a hold for its name is armed, using that hold up.
func (h *holds) keep(ev event) bool {
	for i, name := range h.armed {
		if name == ev.name {
			h.armed = append(h.armed[:i:i], h.armed[i+1:]...)
			h.held = append(h.held, ev)
			return true
		}
	}
	return false
}

// HoldNext holds back the next dispatch named eventName (MESSAGE_CREATE,
// MESSAGE_UPDATE, …) until ReleaseHeld; the helper that makes it still does
// everything else (MessageCreate stores the message and returns its id). Each call
// holds one more dispatch.
func (s *Server) HoldNext(eventName string) {
	s.mu.Lock()
	s.gw.hold.armed = append(s.gw.hold.armed, eventName)
	s.mu.Unlock()
}

// ReleaseHeld dispatches every held event now, oldest first, and returns how many.
// Holds armed and not yet used stay armed; a released event is never held again.
func (s *Server) ReleaseHeld() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	held, armed := s.gw.hold.held, s.gw.hold.armed
	s.gw.hold = holds{}
	for _, ev := range held {
		s.dispatchLocked(ev)
	}
	s.gw.hold.armed = armed
	return len(held)
}
