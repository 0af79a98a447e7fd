// Package fakediscord is a fake Discord for end-to-end tests: it serves the
// parts of Discord's REST API (under /api/v9) and of its gateway (a JSON
// websocket) that a bot built on github.com/bwmarrin/discordgo v0.29.0 uses, on
// loopback, and records everything the bot does so tests can assert on it.
//
// # Starting it
//
//	fake := fakediscord.New(t)            // closed by t.Cleanup
//	// or: fake, err := fakediscord.Start(fakediscord.Config{...}); defer fake.Close()
//
// The fake has a bot user (BotUser), an application id (ApplicationID, the bot
// user's id as on Discord) and optionally guilds and channels from Config.
// Channels also become known when a dispatch helper names them, or through
// AddChannel. Every id is a snowflake string.
//
// # Pointing discordgo at it
//
// discordgo's endpoints (discordgo.EndpointAPI and friends) are package
// variables computed at start-up, so changing them does nothing useful. Instead
// give the session an http.Client whose Transport rewrites the scheme and host of
// every request to the fake (Transport), and a websocket dialer that dials the
// fake. Session and Configure do both:
//
//	s, err := fake.Session("token")   // discordgo.New("Bot token") + Configure
//	s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages |
//		discordgo.IntentsMessageContent
//	err = s.Open()
//	...
//	s.ShouldReconnectOnError = false  // before Close, or a dropped read reconnects
//	s.Close()                         // discordgo sleeps 1 s in Close
//
// discordgo's Open asks GET /api/v9/gateway for the websocket URL (the fake
// answers with its own ws:// URL, see GatewayURL), appends "/?v=10&encoding=json",
// and caches that URL for every later reconnect; it never uses READY's
// resume_gateway_url. Production code can reuse Transport for an API base
// override: REST goes to the override, and the gateway URL then comes from the
// override's GET /gateway.
//
// # The gateway
//
// On connect the fake sends HELLO (op 10). IDENTIFY (op 2) gets READY (with
// session_id, resume_gateway_url, user, application and the configured guilds
// as unavailable) followed by one GUILD_CREATE per configured guild; heartbeats
// (op 1) get ACKs (op 11); RESUME (op 6) replays every dispatch after the given
// sequence number and then sends RESUMED; a RESUME for an unknown session gets
// INVALID SESSION (op 9). Every dispatch carries a sequence number. Frames are
// plain JSON text; IDENTIFY's compress flag is ignored. Several sessions may be
// connected at once, one per shard: a guild's events go to the session of its shard,
// (guild_id >> 22) % shards, as on Discord (shards.go).
//
// Dispatch helpers (MessageCreate, MessageUpdate, MessageDelete, Command,
// Autocomplete, Button, Select, DispatchRaw) may be called before the bot has
// identified: the events wait and follow READY. Events sent while the connection
// is down are kept and replayed on RESUME, as Discord does. As on Discord,
// guild MESSAGE_* events need the GUILD_MESSAGES intent, and without the
// MESSAGE_CONTENT intent their content, embeds, attachments and components are
// empty unless the bot wrote the message or is mentioned in it. Messages the bot
// creates, edits or deletes through REST come back to it as gateway events
// (Config.NoEcho turns that off).
//
// # REST
//
// GET /gateway and /gateway/bot (recommending Config.Shards), GET /users/@me and
// /users/{id}, GET /channels/{id}, GET, POST (JSON or multipart/form-data with
// payload_json and files[n]) /channels/{id}/messages, GET, PATCH and DELETE
// /channels/{id}/messages/{mid}, PUT and GET /applications/{app}/commands and
// /applications/{app}/guilds/{guild}/commands (bulk overwrite), POST
// /interactions/{id}/{token}/callback (types 1, 4, 5, 6, 7, 8, 9), POST
// /webhooks/{app}/{token} (follow-ups, ?wait=true), GET, PATCH and DELETE
// /webhooks/{app}/{token}/messages/@original and /{mid}, POST /users/@me/channels
// (a user's DM channel, posted to as any channel; CloseDMs refuses those posts as
// Discord does, dm.go). Uploaded files are
// served back under /attachments/{channel}/{id}/{filename}, the path layout of
// Discord's CDN. The fake checks what Discord checks that a bot is likely to
// trip on — message content and embed limits, empty messages, component and
// command shapes, autocomplete choices, the 3-second window to answer an
// interaction, answering twice — and answers with Discord's JSON errors. An
// unknown route gets a 404 with a Discord-style JSON body. Every request,
// answered or not, is recorded (Requests).
//
// # Faults
//
// FailNext makes the next matching request fail (a 429 carries the JSON body and
// the rate-limit headers discordgo reads, so discordgo waits and retries);
// DropConnection closes the gateway websocket abruptly so the client resumes;
// DuplicateNext sends the next dispatch twice with the same sequence number;
// HoldNext holds the next dispatch of a kind back until ReleaseHeld, so events
// arrive out of order (a message's delete or update before its create).
//
// # Assertions
//
// Requests, Messages, Message, InteractionResponses, Commands, Identifies,
// Resumes and Heartbeats report what happened; WaitFor and WaitRequest wait for
// a condition with a timeout, so tests never sleep.
package fakediscord
