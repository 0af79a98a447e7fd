package bot

import (
	"slices"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// Tenancy (SPEC 8.1): one bot serves many Discord servers, and what a server installs
// is that server's. An imported ruleset local/<id> lives in the namespace of the guild
// that imported it, so local/x means one thing in one server and another in the next;
// the built-ins, and the versions of them kept in the store, are everyone's
// (storage.RulesetHome decides which namespace an id lives in). Every lookup of an
// installed ruleset goes through the guild it is made for: a campaign's guild for the
// campaign's ruleset, the command's guild for a library card's or for a ruleset a user
// names. The console has no guild: it is one local namespace ("").
//
// Installing is not for everyone in a server: it needs Discord's Manage Server
// permission there (mayInstall).

// mayInstall refuses, as not-allowed, an invoker who may not install rulesets where
// cmd was given: one without the Manage Server permission (User.CanManageGuild, which
// the console's user always has). Being a GM is not enough: anyone may /campaign create
// and so become one, and an install is the whole server's (it claims local/<id> and
// posts version notices in every older campaign's channel). From a direct message (no
// guild) nobody installs: a DM's namespace would be the console's.
func mayInstall(cmd Command) error {
	if cmd.User.CanManageGuild {
		return nil
	}
	if cmd.GuildID == "" {
		return refusal.New(refusal.NotAllowed, "rulesets are installed in a server, not in a direct message")
	}
	return refusal.New(refusal.NotAllowed, "installing a ruleset in this server needs the Manage Server permission")
}

// installedRuleset is the record of id at version as guild sees it.
func installedRuleset(tx storage.Tx, guild, id string, version int) (*storage.RulesetRecord, error) {
	return tx.Ruleset(storage.RulesetHome(guild, id), id, version)
}

// installedVersions lists the versions of id installed as guild sees them; none (no
// error) when there are none.
func installedVersions(tx storage.Tx, guild, id string) ([]int, error) {
	vs, err := tx.RulesetVersions(storage.RulesetHome(guild, id), id)
	if storage.KindOf(err) == storage.NotFound {
		return nil, nil
	}
	return vs, err
}

// installedIDs lists, sorted, the ids of the stored rulesets guild sees: the shared
// namespace's built-in versions and the guild's own imports (for the console, whose
// namespace is the shared one, its imports too).
func installedIDs(tx storage.Tx, guild string) ([]string, error) {
	ids, err := tx.RulesetIDs("")
	if err != nil && storage.KindOf(err) != storage.NotFound {
		return nil, err
	}
	if guild == "" {
		return ids, nil
	}
	ids = slices.DeleteFunc(slices.Clone(ids), storage.Imported)
	own, err := tx.RulesetIDs(guild)
	if err != nil && storage.KindOf(err) != storage.NotFound {
		return nil, err
	}
	for _, id := range own {
		if storage.Imported(id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}
