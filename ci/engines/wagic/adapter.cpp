// zoneoracle zcp adapter for Wagic (WagicProject/wagic).
//
// A process engine: reads zcp requests on stdin, one JSON object a line,
// answers on the real stdout. Every game is a Wagic GameObserver with two
// Players; the cards are Wagic MTGCardInstances made from primitives this
// adapter writes in Wagic's own card-file format and loads with
// MTGAllCards::load. Zone changes go through Wagic's zone code
// (MTGPlayerCards::putInZone, MTGCardInstance::destroy,
// MTGPlayerCards::drawFromLibrary, MTGCardInstance::changeController,
// MTGGameZone::shuffle), state-based actions through
// GameObserver::gameStateBasedEffects. What the adapter reports is read
// back from Wagic's zones and instances.
//
// Identity: Wagic clones an MTGCardInstance on every zone change and links
// the old one to the new through `next`; a handle follows that chain, and
// each instance it reaches gets a new serial (the `object` token).
//
// Wagic prints freely on stdout: the real stdout is kept for the protocol
// and fd 1 goes to stderr. Wagic wants a Res directory under its working
// directory and a writable HOME: both live in a private run directory,
// removed at exit by a watchdog process that outlives a SIGKILL of the
// adapter's process group.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "PrecompiledHeader.h"
#include "JGE.h"
#include "JApp.h"
#include "JGameLauncher.h"
#include "JRenderer.h"
#include "JFileSystem.h"
#include "GameObserver.h"
#include "GameOptions.h"
#include "MTGDeck.h"
#include "MTGGameZones.h"
#include "MTGCardInstance.h"
#include "Player.h"
#include "Rules.h"
#include "WEvent.h"
#include "ActionStack.h"
#include "MTGRules.h"
#include "AllAbilities.h"

using json = nlohmann::json;

// What Qtconsole.cpp (Wagic's console main, left out of the link) defines.
int JGEGetTime() { return 0; }
bool JGEToggleFullscreen() { return true; }
void JGECreateDefaultBindings() {}

namespace {

const char *ENGINE_NAME = "wagic";
const char *WAGIC_COMMIT = "37115e15ea4e24ac122e63b5d0270228d31553bc";

FILE *proto_out = nullptr;
std::string run_dir;

struct ProtoError : std::runtime_error {
    std::string code;
    ProtoError(const std::string &c, const std::string &m) : std::runtime_error(m), code(c) {}
};
[[noreturn]] void bad(const std::string &m) { throw ProtoError("bad_request", m); }
[[noreturn]] void unsup(const std::string &m) { throw ProtoError("unsupported", m); }

// ---------------------------------------------------------------- run dir

void remove_tree(const std::string &dir) {
    if (dir.empty()) return;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", dir.c_str(), (char *)nullptr);
        _exit(127);
    }
    if (pid > 0) waitpid(pid, nullptr, 0);
}

void on_signal(int sig) {
    // the watchdog removes the run directory
    signal(sig, SIG_DFL);
    raise(sig);
}

void make_run_dir(const std::string &res) {
    char tmpl[] = "/tmp/wagic-zcp.XXXXXX";
    if (!mkdtemp(tmpl)) { perror("mkdtemp"); exit(1); }
    run_dir = tmpl;
    std::string resabs = res;
    char buf[4096];
    if (realpath(res.c_str(), buf)) resabs = buf;
    if (symlink(resabs.c_str(), (run_dir + "/Res").c_str()) != 0) { perror("symlink"); exit(1); }
    mkdir((run_dir + "/.Wagic").c_str(), 0700);
    setenv("HOME", run_dir.c_str(), 1);
    if (chdir(run_dir.c_str()) != 0) { perror("chdir"); exit(1); }

    // Watchdog: leaves the process group (a runner kills the whole group
    // with SIGKILL), waits for the adapter to go, removes the directory.
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        close(fds[1]);
        for (int fd = 0; fd < 3; fd++) {
            int devnull = open("/dev/null", O_RDWR);
            if (devnull >= 0) { dup2(devnull, fd); if (devnull > 2) close(devnull); }
        }
        char c;
        while (read(fds[0], &c, 1) > 0) {}
        execlp("rm", "rm", "-rf", run_dir.c_str(), (char *)nullptr);
        _exit(0);
    }
    close(fds[0]);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    // fds[1] stays open in this process until it dies.
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGHUP, on_signal);
    signal(SIGPIPE, SIG_IGN);
}

// ---------------------------------------------------------------- Wagic

bool wagic_ready = false;

void init_wagic() {
    if (wagic_ready) return;
    JGameLauncher *launcher = new JGameLauncher();
    JGE *engine = JGE::GetInstance();
    JApp *app = launcher->GetGameApp();
    app->Create();
    engine->SetApp(app);
    JRenderer::GetInstance()->Enable2D();
    options.reloadProfile();
    wagic_ready = true;
}

// One primitive per combination of type words, written in Wagic's card
// format and loaded by MTGAllCards::load.
std::map<std::string, int> card_ids;
int next_card_id = 990000001;

std::string cap(const std::string &w) {
    std::string s = w;
    for (auto &c : s) if (c == '_') c = ' ';
    bool up = true;
    for (auto &c : s) {
        if (up && c >= 'a' && c <= 'z') c = c - 'a' + 'A';
        up = (c == ' ' || c == '-');
    }
    return s;
}

const std::set<std::string> CARD_TYPES = {"artifact", "battle", "creature", "enchantment", "instant", "land",
                                          "planeswalker", "sorcery", "tribal", "kindred", "conspiracy",
                                          "dungeon", "phenomenon", "plane", "scheme", "vanguard"};
const std::set<std::string> SUPERTYPES = {"legendary", "basic", "snow", "world"};

MTGCard *card_for(const std::vector<std::string> &types, const std::vector<std::string> &subtypes) {
    std::string key;
    for (auto &t : types) key += t + ",";
    key += "/";
    for (auto &t : subtypes) key += t + ",";
    auto it = card_ids.find(key);
    if (it != card_ids.end()) return MTGCollection()->getCardById(it->second);
    int id = next_card_id++;
    std::vector<std::string> ty, sub;
    for (auto &w : types) {
        if (w == "token") continue;
        if (CARD_TYPES.count(w) || SUPERTYPES.count(w)) ty.push_back(cap(w)); else sub.push_back(cap(w));
    }
    for (auto &w : subtypes) sub.push_back(cap(w));
    bool creature = std::find(types.begin(), types.end(), "creature") != types.end();
    std::ostringstream f;
    f << "[card]\nname=ZO Card " << id << "\nid=" << id << "\nrarity=C\n";
    std::string tl;
    for (auto &t : ty) tl += (tl.empty() ? "" : " ") + t;
    if (tl.empty()) tl = "Artifact";  // a card with no type word: a typeless card Wagic can hold
    f << "type=" << tl << "\n";
    if (!sub.empty()) {
        std::string sl;
        for (auto &t : sub) sl += (sl.empty() ? "" : " ") + t;
        f << "subtype=" << sl << "\n";
    }
    if (creature) f << "power=2\ntoughness=2\n";
    f << "mana={1}\n[/card]\n";
    std::string name = "zo_card_" + std::to_string(id) + ".txt";
    {
        std::ofstream out(run_dir + "/.Wagic/" + name);
        out << f.str();
    }
    MTGCollection()->load(name);
    card_ids[key] = id;
    MTGCard *c = MTGCollection()->getCardById(id);
    if (!c) throw ProtoError("internal", "Wagic did not load the card " + std::to_string(id));
    return c;
}

// ---------------------------------------------------------------- game

enum ZoneKind { Z_LIBRARY, Z_HAND, Z_GRAVEYARD, Z_BATTLEFIELD, Z_STACK, Z_EXILE, Z_COMMAND, Z_OUTSIDE, Z_NONE };
const char *kind_name(ZoneKind k) {
    switch (k) {
    case Z_LIBRARY: return "library";
    case Z_HAND: return "hand";
    case Z_GRAVEYARD: return "graveyard";
    case Z_BATTLEFIELD: return "battlefield";
    case Z_STACK: return "stack";
    case Z_EXILE: return "exile";
    case Z_COMMAND: return "command";
    case Z_OUTSIDE: return "outside";
    default: return "";
    }
}
bool per_player(ZoneKind k) { return k == Z_LIBRARY || k == Z_HAND || k == Z_GRAVEYARD; }
bool ordered(ZoneKind k) { return k == Z_LIBRARY || k == Z_GRAVEYARD || k == Z_STACK; }
bool is_public(ZoneKind k) {
    return k == Z_GRAVEYARD || k == Z_BATTLEFIELD || k == Z_STACK || k == Z_EXILE || k == Z_COMMAND;
}

struct Obj {
    MTGCardInstance *inst = nullptr;
    long serial = 0;
    bool exists = true;
    int owner = 0;
};

struct Ref { std::string handle; long serial; };

struct Loc { ZoneKind kind = Z_NONE; int player = -1; };

// Wagic's zone-change events, as a permanent ability of the action layer
// sees them (the way Wagic's own rules, MTGTokensCleanup among them, do).
struct ZoneEvent { MTGCardInstance *card; MTGGameZone *from; MTGGameZone *to; };

class ZoneWatcher : public PermanentAbility {
public:
    std::vector<ZoneEvent> *log;
    ZoneWatcher(GameObserver *g, int id, std::vector<ZoneEvent> *l) : PermanentAbility(g, id), log(l) {}
    int receiveEvent(WEvent *e) override {
        if (WEventZoneChange *z = dynamic_cast<WEventZoneChange *>(e)) log->push_back({z->card, z->from, z->to});
        return 0;
    }
    ZoneWatcher *clone() const override { return new ZoneWatcher(*this); }
};

struct Trigger {
    std::string handle;
    json from, to;          // zone options of the watch (strings), null: any
    std::vector<std::string> types;
    bool fired = false;
    json found = nullptr;
    int controller = -1;
    MTGCardInstance *tracked = nullptr;  // the instance Wagic's event carried
    long tracked_serial = 0;
};

struct Game {
    GameObserver *g = nullptr;
    std::vector<ZoneEvent> *events_ptr = nullptr;
    std::map<std::string, Trigger> triggers;
    std::set<std::string> marks;
    std::vector<std::string> trigger_order;
    std::vector<std::string> players;
    std::map<std::string, Obj> objs;
    std::vector<std::string> order;  // handles in the order they were introduced
    std::map<std::string, Ref> refs;
    std::map<MTGCardInstance *, long> stack_seq;
    long next_serial = 0;
    long next_stack = 0;

    int player_index(const std::string &p) const {
        for (size_t i = 0; i < players.size(); i++) if (players[i] == p) return (int)i;
        return -1;
    }
    Player *P(int i) { return g->players[i]; }

    MTGGameZone *zone(ZoneKind k, int p) {
        MTGPlayerCards *c = P(p)->game;
        switch (k) {
        case Z_LIBRARY: return c->library;
        case Z_HAND: return c->hand;
        case Z_GRAVEYARD: return c->graveyard;
        case Z_BATTLEFIELD: return c->inPlay;
        case Z_STACK: return c->stack;
        case Z_EXILE: return c->exile;
        case Z_COMMAND: return c->commandzone;
        case Z_OUTSIDE: return c->sideboard;
        default: return nullptr;
        }
    }

    Loc locate(MTGCardInstance *inst) {
        Loc l;
        if (!inst) return l;
        MTGGameZone *z = inst->currentZone;
        for (int p = 0; p < 2; p++)
            for (int k = Z_LIBRARY; k <= Z_OUTSIDE; k++)
                if (zone((ZoneKind)k, p) == z && z->hasCard(inst)) { l.kind = (ZoneKind)k; l.player = p; return l; }
        // currentZone may be stale: look everywhere
        for (int p = 0; p < 2; p++)
            for (int k = Z_LIBRARY; k <= Z_OUTSIDE; k++)
                if (zone((ZoneKind)k, p)->hasCard(inst)) { l.kind = (ZoneKind)k; l.player = p; return l; }
        return l;  // garbage, temp or nowhere: gone
    }

    std::map<MTGCardInstance *, std::string> inst_handle;  // every instance a handle has been

    Loc loc_of_zone(MTGGameZone *z) {
        Loc l;
        for (int p = 0; p < 2; p++)
            for (int k = Z_LIBRARY; k <= Z_OUTSIDE; k++)
                if (zone((ZoneKind)k, p) == z) { l.kind = (ZoneKind)k; l.player = p; return l; }
        return l;
    }

    std::string handle_of(MTGCardInstance *c) {
        for (int n = 0; c && n < 10000; n++, c = c->previous) {
            auto it = inst_handle.find(c);
            if (it != inst_handle.end()) return it->second;
        }
        return "";
    }

    // Follow Wagic's clone chain; a new instance is a new object.
    void refresh() {
        for (auto &h : order) inst_handle[objs[h].inst] = h;
        for (auto &h : order) {
            Obj &o = objs[h];
            if (!o.exists) continue;
            MTGCardInstance *i = o.inst;
            while (i->next && i->next != i) i = i->next;
            if (i != o.inst) {
                for (MTGCardInstance *c = o.inst; c && c != i; c = c->next) inst_handle[c] = h;
                o.inst = i;
                o.serial = ++next_serial;
                inst_handle[i] = h;
            }
            Loc l = locate(i);
            if (l.kind == Z_NONE) o.exists = false;
        }
    }

    void stamp_stack() {
        for (int p = 0; p < 2; p++)
            for (auto *c : zone(Z_STACK, p)->cards)
                if (!stack_seq.count(c)) stack_seq[c] = ++next_stack;
    }

    // position from the top in an ordered zone
    int position(MTGCardInstance *inst, const Loc &l) {
        if (l.kind == Z_LIBRARY || l.kind == Z_GRAVEYARD) {
            auto &v = zone(l.kind, l.player)->cards;
            for (size_t i = 0; i < v.size(); i++) if (v[i] == inst) return (int)(v.size() - 1 - i);
            return -1;
        }
        if (l.kind == Z_STACK) {
            long mine = stack_seq.count(inst) ? stack_seq[inst] : 0;
            int above = 0;
            for (int p = 0; p < 2; p++)
                for (auto *c : zone(Z_STACK, p)->cards) {
                    long s = stack_seq.count(c) ? stack_seq[c] : 0;
                    if (s > mine) above++;
                }
            return above;
        }
        return -1;
    }

    int controller_of(MTGCardInstance *inst, const Loc &l) {
        if (l.kind == Z_STACK && inst->controller())
            for (int p = 0; p < 2; p++) if (inst->controller() == P(p)) return p;
        return l.player;
    }

    std::string zone_name(const Loc &l) {
        if (l.kind == Z_NONE) return "";
        if (per_player(l.kind)) return players[l.player] + "." + kind_name(l.kind);
        return kind_name(l.kind);
    }

    json object_obs(const std::string &h) {
        Obj &o = objs[h];
        json j;
        j["exists"] = o.exists;
        j["object"] = o.serial;
        j["owner"] = players[o.owner];
        j["layer"] = nullptr;
        j["face"] = "up";
        j["marks"] = json::array();
        j["under"] = nullptr;
        j["came_from"] = nullptr;
        if (!o.exists) {
            j["zone"] = "";
            j["position"] = nullptr;
            j["visibility"] = "private";
            j["controller"] = nullptr;
            j["phased_out"] = false;
            return j;
        }
        Loc l = locate(o.inst);
        j["zone"] = zone_name(l);
        // marks of kind counter are Wagic counters named after the mark
        if (o.inst->counters)
            for (auto *c : o.inst->counters->counters)
                if (c && c->nb > 0 && c->name.compare(0, 8, "zo-mark-") == 0) j["marks"].push_back(c->name.substr(8));
        int pos = ordered(l.kind) ? position(o.inst, l) : -1;
        j["position"] = pos >= 0 ? json(pos) : json(nullptr);
        j["visibility"] = is_public(l.kind) ? "public" : "private";
        if (l.kind == Z_BATTLEFIELD) j["controller"] = players[l.player];
        else if (l.kind == Z_STACK) j["controller"] = players[controller_of(o.inst, l)];
        else j["controller"] = nullptr;
        j["phased_out"] = (bool)o.inst->isPhased;
        return j;
    }

    json observe() {
        refresh();
        json objects = json::object();
        for (auto &h : order) objects[h] = object_obs(h);
        json rj = json::object();
        for (auto &r : refs) {
            Obj &o = objs[r.second.handle];
            bool found = o.exists && o.serial == r.second.serial;
            rj[r.first] = {{"found", found}, {"handle", found ? json(r.second.handle) : json(nullptr)}};
        }
        json pl = json::object();
        for (size_t i = 0; i < players.size(); i++)
            pl[players[i]] = {{"lost", (g->didWin() && !g->didWin(P((int)i)))}};
        json vis = json::object();
        for (size_t p = 0; p < players.size(); p++) {
            json list = json::array();
            for (auto &h : order) {
                Obj &o = objs[h];
                if (!o.exists) continue;
                Loc l = locate(o.inst);
                if (is_public(l.kind) || (l.kind == Z_HAND && l.player == (int)p)) list.push_back(h);
            }
            vis[players[p]] = list;
        }
        json tj = json::object();
        for (auto &t : triggers)
            tj[t.first] = {{"fired", t.second.fired}, {"found", t.second.found},
                           {"controller", t.second.controller >= 0 ? json(players[t.second.controller]) : json(nullptr)}};
        return {{"objects", objects}, {"triggers", tj}, {"refs", rj}, {"players", pl}, {"visible", vis}};
    }
};

Game *game = nullptr;

// ---------------------------------------------------------------- parsing

Loc parse_zone(Game &G, const json &v, int owner, bool allow_outside) {
    if (!v.is_string()) bad("a zone is a string");
    std::string s = v.get<std::string>();
    int player = -1;
    auto dot = s.find('.');
    if (dot != std::string::npos) {
        player = G.player_index(s.substr(0, dot));
        if (player < 0) bad("unknown player in zone '" + s + "'");
        s = s.substr(dot + 1);
        if (s.find('.') != std::string::npos) {
            // an index: only 1 exists in Magic
            std::string idx = s.substr(s.find('.') + 1);
            s = s.substr(0, s.find('.'));
            if (idx != "1") unsup("zone index " + idx);
        }
    }
    Loc l;
    if (s == "library") l.kind = Z_LIBRARY;
    else if (s == "hand") l.kind = Z_HAND;
    else if (s == "graveyard") l.kind = Z_GRAVEYARD;
    else if (s == "battlefield") l.kind = Z_BATTLEFIELD;
    else if (s == "stack") l.kind = Z_STACK;
    else if (s == "exile") l.kind = Z_EXILE;
    else if (s == "command") l.kind = Z_COMMAND;
    else if (s == "outside" && allow_outside) l.kind = Z_OUTSIDE;
    else if (s == "ante") unsup("Wagic has no ante zone");
    else bad("unknown zone '" + v.get<std::string>() + "'");
    if (player >= 0 && !per_player(l.kind)) bad("zone '" + v.get<std::string>() + "' is shared");
    l.player = player >= 0 ? player : owner;
    return l;
}

std::vector<std::string> words(const json &c, const char *key) {
    std::vector<std::string> out;
    if (!c.contains(key)) return out;
    if (!c[key].is_array()) bad(std::string(key) + " must be a list");
    for (auto &w : c[key]) {
        if (!w.is_string()) bad(std::string(key) + " must be a list of words");
        out.push_back(w.get<std::string>());
    }
    return out;
}

void check_keys(const json &o, const std::set<std::string> &known, const std::set<std::string> &unsupported,
                const std::string &what) {
    if (!o.is_object()) bad(what + ": expected an object");
    for (auto &kv : o.items()) {
        if (unsupported.count(kv.key())) unsup(what + ": option '" + kv.key() + "' is not implemented by this adapter");
        if (!known.count(kv.key())) bad(what + ": unknown option '" + kv.key() + "'");
    }
}

// ---------------------------------------------------------------- setup

void do_setup(const json &req) {
    if (!req.contains("ruleset") || !req["ruleset"].is_string() || !req.contains("players") ||
        !req["players"].is_array() || !req.contains("cards") || !req["cards"].is_object())
        bad("setup needs ruleset (text), players (list), cards (object)");
    delete game;  // a setup drops the current game, also when it fails
    game = nullptr;
    if (req["ruleset"] != "mtg-current") unsup("unknown rule set (this engine plays mtg-current)");
    if (req["players"].size() != 2) unsup("Wagic's game holds exactly two players");
    init_wagic();

    Game *G = new Game();
    for (auto &p : req["players"]) {
        if (!p.is_string()) bad("players are names");
        G->players.push_back(p.get<std::string>());
    }
    if (G->players[0] == G->players[1]) bad("two players with one name");

    struct Placed { std::string h; Loc l; int pos; bool token; MTGCard *card; int controller; };
    std::vector<Placed> placed;
    for (auto &kv : req["cards"].items()) {
        const json &c = kv.value();
        if (!c.is_object()) bad("card '" + kv.key() + "' is not an object");
        check_keys(c, {"owner", "zone", "kind", "types", "subtypes", "controller", "face", "visibility", "position", "under"},
                   {}, "card '" + kv.key() + "'");
        if (c.contains("under")) unsup("Wagic has no sub-cards");
        if (c.contains("visibility")) bad("visibility is the zone's in Magic");
        if (c.contains("face") && c["face"] != "up") unsup("face-down cards are not implemented by this adapter");
        std::string kind = c.value("kind", "card");
        if (kind != "card" && kind != "token") unsup("objects of kind '" + kind + "' (Wagic's zones hold cards and tokens)");
        int owner = G->player_index(c.value("owner", ""));
        if (owner < 0) bad("card '" + kv.key() + "': unknown owner");
        if (!c.contains("zone")) bad("card '" + kv.key() + "' has no zone");
        Loc l = parse_zone(*G, c["zone"], owner, true);
        if (per_player(l.kind) && l.player != owner) bad("card '" + kv.key() + "' in another player's " + kind_name(l.kind));
        int controller = owner;
        if (c.contains("controller")) {
            if (l.kind != Z_BATTLEFIELD && l.kind != Z_STACK) bad("a controller in a zone without controllers");
            controller = G->player_index(c["controller"].get<std::string>());
            if (controller < 0) bad("unknown controller");
        }
        if (l.kind == Z_BATTLEFIELD || l.kind == Z_STACK) l.player = controller;
        else if (!per_player(l.kind)) l.player = owner;
        std::vector<std::string> types = words(c, "types");
        bool token = kind == "token";
        if (token && l.kind != Z_BATTLEFIELD) bad("a token outside the battlefield");
        std::vector<std::string> subtypes = words(c, "subtypes");
        bool instant = std::find(types.begin(), types.end(), "instant") != types.end() ||
                       std::find(types.begin(), types.end(), "sorcery") != types.end();
        if (instant && l.kind == Z_BATTLEFIELD) bad("an instant or sorcery can't be on the battlefield (CR 400.4a)");
        int pos = c.contains("position") && c["position"].is_number_integer() ? c["position"].get<int>() : -1;
        placed.push_back({kv.key(), l, pos, token, card_for(types, subtypes), controller});
        (void)owner;
    }

    // One GameObserver serves every game of the process: Wagic's teardown
    // of a game (~GameObserver) does not survive the instances this adapter
    // adds, and a new observer per game would grow the process by tens of
    // MB a second under gate --fuzz. Each setup empties every zone of both
    // players instead; the watcher's log is per game.
    static GameObserver *g = nullptr;
    static std::vector<ZoneEvent> *events = nullptr;
    if (!g) {
        g = new GameObserver();
        for (int i = 0; i < 2; i++) {
            Player *p = new Player(g, "testsuite", "", nullptr);
            p->playMode = Player::MODE_TEST_SUITE;
            g->loadPlayer(i, p);
        }
        g->startGame(GAME_TYPE_CLASSIC, Rules::getRulesByFilename("testsuite.txt"));
        events = new std::vector<ZoneEvent>();
        g->addObserver(new ZoneWatcher(g, 990001, events));
    } else {
        for (int i = 0; i < 2; i++) {
            MTGPlayerCards *c = g->players[i]->game;
            MTGGameZone *zs[] = {c->library, c->graveyard, c->hand, c->inPlay, c->stack, c->removedFromGame,
                                 c->garbage, c->garbageLastTurn, c->reveal, c->sideboard, c->commandzone, c->temp};
            for (MTGGameZone *z : zs) {
                z->cards.clear();
                z->cardsMap.clear();
                z->nb_cards = 0;
                z->cardsSeenThisTurn.clear();
                z->cardsSeenLastTurn.clear();
                z->lastCardDrawn = nullptr;
            }
            c->library->placeOnTop.clear();
            c->library->miracle = false;
        }
    }
    events->clear();
    G->g = g;
    G->events_ptr = events;
    g->setLoser(nullptr);

    // Within an ordered zone, cards go in from the bottom up (Wagic's top
    // is the back of the vector).
    std::vector<size_t> idx(placed.size());
    for (size_t i = 0; i < idx.size(); i++) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return placed[a].pos > placed[b].pos; });
    std::map<std::string, int> owners;
    for (auto &kv : req["cards"].items()) owners[kv.key()] = G->player_index(kv.value()["owner"].get<std::string>());
    // keep handles in a stable order (sorted): the order of keys means nothing
    std::vector<std::string> hs;
    for (auto &p : placed) hs.push_back(p.h);
    std::sort(hs.begin(), hs.end());
    G->order = hs;
    for (size_t n : idx) {
        Placed &pl = placed[n];
        int owner = owners[pl.h];
        MTGCardInstance *inst = new MTGCardInstance(pl.card, G->P(owner)->game);
        inst->owner = G->P(owner);
        if (pl.token) inst->isToken = 1;
        MTGGameZone *z = G->zone(pl.l.kind, pl.l.player);
        z->addCard(inst);
        z->cardsSeenThisTurn.clear();
        inst->lastController = G->P(pl.l.kind == Z_BATTLEFIELD || pl.l.kind == Z_STACK ? pl.l.player : owner);
        if (pl.l.kind == Z_BATTLEFIELD) inst->summoningSickness = 0;
        Obj o;
        o.inst = inst;
        o.serial = ++G->next_serial;
        o.owner = owner;
        G->objs[pl.h] = o;
        if (pl.l.kind == Z_STACK) G->stack_seq[inst] = ++G->next_stack;
    }
    game = G;
}

// ---------------------------------------------------------------- steps

struct Result {
    std::string outcome = "no_move";
    json error = nullptr;
    json events = json::array();
};

void event(Result &r, const std::string &h, const std::string &outcome) {
    r.events.push_back({{"handle", h}, {"outcome", outcome}});
}

std::string object_of(Game &G, const json &s, bool &found) {
    found = true;
    if (s.contains("card") && s.contains("ref")) bad("card and ref together");
    if (s.contains("card")) {
        std::string h = s["card"].get<std::string>();
        if (!G.objs.count(h)) bad("unknown card '" + h + "'");
        if (!G.objs[h].exists) found = false;
        return h;
    }
    if (s.contains("ref")) {
        std::string r = s["ref"].get<std::string>();
        if (!G.refs.count(r)) bad("unknown reference '" + r + "'");
        Ref &ref = G.refs[r];
        Obj &o = G.objs[ref.handle];
        if (!o.exists || o.serial != ref.serial) found = false;
        return ref.handle;
    }
    bad("the step names no card or ref");
}

// Put the instance at `pos` from the top of its ordered zone (after Wagic
// put it on top).
void place(Game &G, MTGCardInstance *inst, const Loc &l, const json &position) {
    if (position.is_null() || position == "top") return;
    if (l.kind == Z_STACK) {
        // the stack's order is the adapter's arrival stamps: renumber
        std::vector<MTGCardInstance *> top_first;
        for (int p = 0; p < 2; p++) for (auto *c : G.zone(Z_STACK, p)->cards) if (c != inst) top_first.push_back(c);
        std::sort(top_first.begin(), top_first.end(), [&](MTGCardInstance *a, MTGCardInstance *b) { return G.stack_seq[a] > G.stack_seq[b]; });
        size_t at;
        if (position == "bottom") at = top_first.size();
        else if (position.is_number_integer()) at = std::min<size_t>(position.get<long>(), top_first.size());
        else bad("position: top, bottom or an index");
        top_first.insert(top_first.begin() + at, inst);
        long n = (long)top_first.size();
        for (auto *c : top_first) G.stack_seq[c] = G.next_stack + n--;
        G.next_stack += (long)top_first.size();
        return;
    }
    if (l.kind != Z_LIBRARY && l.kind != Z_GRAVEYARD) return;
    auto &v = G.zone(l.kind, l.player)->cards;
    auto it = std::find(v.begin(), v.end(), inst);
    if (it == v.end()) return;
    v.erase(it);
    size_t from_top;
    if (position == "bottom") from_top = v.size();
    else if (position.is_number_integer()) from_top = std::min<size_t>(position.get<long>(), v.size());
    else bad("position: top, bottom or an index");
    v.insert(v.begin() + (v.size() - from_top), inst);
}

void apply_shuffle(Game &G, const Loc &l, const json &sh, Result &r, bool step) {
    MTGGameZone *z = G.zone(l.kind, l.player);
    if (sh.is_boolean()) { if (sh.get<bool>()) z->shuffle(); return; }
    if (!sh.is_array()) bad("shuffle: true or a list of handles");
    // the order given, top first, naming each object of the zone once
    std::vector<MTGCardInstance *> want;
    std::set<MTGCardInstance *> seen;
    for (auto &h : sh) {
        std::string hs = h.get<std::string>();
        if (!G.objs.count(hs)) bad("unknown card '" + hs + "'");
        Obj &o = G.objs[hs];
        if (!o.exists || !z->hasCard(o.inst) || seen.count(o.inst)) { if (step) { r.outcome = "failed"; r.error = "not_in_zone"; } return; }
        seen.insert(o.inst);
        want.push_back(o.inst);
    }
    if (want.size() != z->cards.size()) { if (step) { r.outcome = "failed"; r.error = "not_in_zone"; } return; }
    std::reverse(want.begin(), want.end());
    z->cards = want;
}

// One object changes zone through Wagic. Returns the outcome; events added.
std::string move_one(Game &G, const std::string &h, const json &m, Result &r, json *err) {
    Obj &o = G.objs[h];
    MTGCardInstance *inst = o.inst;
    Loc cur = G.locate(inst);
    if (m.contains("from")) {
        std::string fs = m["from"].get<std::string>();
        if (fs == "any") {}
        else {
            Loc f = parse_zone(G, m["from"], o.owner, true);
            bool named_player = fs.find('.') != std::string::npos;
            if (f.kind != cur.kind || (per_player(f.kind) && named_player && f.player != cur.player)) {
                *err = "not_in_zone"; return "failed";
            }
        }
    }
    if (inst->isPhased) { *err = "phased_out"; return "failed"; }
    Loc dest = parse_zone(G, m["to"], o.owner, true);
    if (dest.kind == Z_BATTLEFIELD || dest.kind == Z_STACK) {
        dest.player = cur.kind == Z_BATTLEFIELD ? cur.player : cur.kind == Z_STACK ? G.controller_of(inst, cur) : o.owner;
    } else if (!per_player(dest.kind)) {
        dest.player = o.owner;
    }
    std::string cause = m.value("cause", "");
    // Wagic's mover (AAMover::resolve) leaves an instant or sorcery where
    // it is when an effect would put it onto the battlefield.
    if (dest.kind == Z_BATTLEFIELD && inst->isSorceryorInstant()) { *err = "cannot_hold"; return "stayed"; }
    bool same = dest.kind == cur.kind && (dest.player == cur.player || !per_player(dest.kind));
    if (same && dest.kind != Z_EXILE && dest.kind != Z_COMMAND) return "no_move";
    MTGGameZone *from = inst->currentZone;
    MTGGameZone *to = G.zone(dest.kind, dest.player);
    if (cause == "destroy" && cur.kind == Z_BATTLEFIELD && dest.kind == Z_GRAVEYARD && dest.player == o.owner) {
        inst->destroy();
    } else {
        G.P(o.owner)->game->putInZone(inst, from, to);
    }
    G.refresh();
    Obj &after = G.objs[h];
    if (!after.exists) { event(r, h, "ceased"); return "ceased"; }
    if (after.inst == inst) { *err = nullptr; return "no_move"; }
    Loc now = G.locate(after.inst);
    if (now.kind == Z_STACK) G.stamp_stack();
    if (m.contains("position")) place(G, after.inst, now, m["position"]);
    if (m.contains("shuffle")) apply_shuffle(G, now, m["shuffle"], r, false);
    bool in_place = now.kind == cur.kind && now.player == cur.player;
    std::string oc = in_place ? "new_object_in_place" : "moved";
    event(r, h, oc);
    return oc;
}

const std::set<std::string> MOVE_KEYS = {"card", "ref", "to", "from", "position", "cause", "by", "shuffle", "seed", "choose", "face"};
const std::set<std::string> MOVE_UNSUP = {"then", "player", "costs"};

Result step_move(Game &G, const json &s) {
    check_keys(s, MOVE_KEYS, MOVE_UNSUP, "move");
    if (!s.contains("to")) bad("move needs to");
    if (s.contains("choose") && s["choose"] != 1) unsup("choose: Magic has one zone of each type");
    if (s.contains("face") && s["face"] != "up") unsup("face-down objects (Wagic's morph is a card state this adapter does not drive)");
    Result r;
    bool found;
    std::string h = object_of(G, s, found);
    parse_zone(G, s["to"], G.objs[h].owner, true);  // check it before anything moves
    if (!found) { r.outcome = "not_found"; r.error = "not_found"; return r; }
    json err = nullptr;
    r.outcome = move_one(G, h, s, r, &err);
    r.error = err;
    return r;
}

Result step_move_together(Game &G, const json &s) {
    check_keys(s, {"moves", "order"}, {"player", "order_by"}, "move_together");
    if (!s.contains("moves") || !s["moves"].is_array()) bad("move_together needs moves (a list)");
    for (auto &m : s["moves"]) {
        check_keys(m, MOVE_KEYS, MOVE_UNSUP, "move_together member");
        if (m.contains("face") && m["face"] != "up") unsup("face-down objects");
        if (!m.contains("card") || !m.contains("to")) bad("each move needs card and to");
        if (!G.objs.count(m["card"].get<std::string>())) bad("unknown card");
        parse_zone(G, m["to"], G.objs[m["card"].get<std::string>()].owner, true);
    }
    {
        std::set<int> stackers;
        for (auto &m : s["moves"]) {
            Obj &o = G.objs[m["card"].get<std::string>()];
            if (!o.exists) continue;
            Loc d = parse_zone(G, m["to"], o.owner, true);
            Loc c = G.locate(o.inst);
            if (d.kind == Z_STACK && c.kind != Z_STACK)
                stackers.insert((c.kind == Z_BATTLEFIELD) ? c.player : o.owner);
        }
        if (stackers.size() > 1)
            unsup("several players' objects put onto the stack together: Wagic keeps the stack's order in its ActionStack, "
                  "which this adapter does not drive (CR 405.3)");
    }
    Result r;
    std::string first;
    bool any = false;
    std::vector<std::string> arrived;
    for (auto &m : s["moves"]) {
        std::string h = m["card"].get<std::string>();
        std::string oc;
        json err = nullptr;
        if (!G.objs[h].exists) { oc = "not_found"; event(r, h, oc); }
        else {
            size_t before = r.events.size();
            oc = move_one(G, h, m, r, &err);
            if (r.events.size() == before) event(r, h, oc);
        }
        if (oc == "moved" || oc == "redirected" || oc == "replaced") {
            any = true;
            if (G.objs[h].exists) arrived.push_back(h);
        }
        if (first.empty()) first = oc;
    }
    // Objects arriving together in an ordered zone take the places they
    // took, in the order the step gives (order:, else the list), first on
    // top; a member that did not move keeps its place (CR 400.5, 401.4).
    std::map<MTGGameZone *, std::vector<std::string>> by_zone;
    for (auto &h : arrived) by_zone[G.objs[h].inst->currentZone].push_back(h);
    for (auto &a : by_zone) {
        MTGGameZone *z = a.first;
        std::vector<std::string> wanted;
        if (s.contains("order")) {
            for (auto &kv : s["order"].items())
                for (auto &h : kv.value())
                    if (std::find(a.second.begin(), a.second.end(), h.get<std::string>()) != a.second.end() &&
                        std::find(wanted.begin(), wanted.end(), h.get<std::string>()) == wanted.end())
                        wanted.push_back(h.get<std::string>());
        }
        for (auto &h : a.second) if (std::find(wanted.begin(), wanted.end(), h) == wanted.end()) wanted.push_back(h);
        bool is_stack = false;
        for (int p = 0; p < 2; p++) if (z == G.zone(Z_STACK, p)) is_stack = true;
        if (is_stack) {
            // the adapter's arrival stamps: first wanted on top
            std::vector<long> seqs;
            for (auto &h : wanted) seqs.push_back(G.stack_seq[G.objs[h].inst]);
            std::sort(seqs.rbegin(), seqs.rend());
            for (size_t i = 0; i < wanted.size(); i++) G.stack_seq[G.objs[wanted[i]].inst] = seqs[i];
            continue;
        }
        std::vector<size_t> places;
        for (auto &h : wanted)
            for (size_t i = 0; i < z->cards.size(); i++) if (z->cards[i] == G.objs[h].inst) places.push_back(i);
        std::sort(places.rbegin(), places.rend());  // the back of Wagic's vector is the top
        for (size_t i = 0; i < wanted.size() && i < places.size(); i++) z->cards[places[i]] = G.objs[wanted[i]].inst;
    }
    r.outcome = any ? "moved" : (first.empty() ? "no_move" : first);
    r.error = nullptr;
    return r;
}

Result step_create(Game &G, const json &s) {
    check_keys(s, {"as", "owner", "zone", "kind", "types", "subtypes", "controller"}, {"face", "copy_of", "lki"}, "create");
    std::string as = s.value("as", "");
    if (as.empty() || G.objs.count(as)) bad("create needs a new handle in as");
    std::string kind = s.value("kind", "token");
    if (kind != "token") unsup("create of kind '" + kind + "'");
    int owner = G.player_index(s.value("owner", ""));
    if (owner < 0) bad("unknown owner");
    Loc l = parse_zone(G, s["zone"], owner, false);
    if (l.kind != Z_BATTLEFIELD) unsup("a token created outside the battlefield");
    int controller = owner;
    if (s.contains("controller")) {
        controller = G.player_index(s["controller"].get<std::string>());
        if (controller < 0) bad("unknown controller");
    }
    MTGCard *card = card_for(words(s, "types"), words(s, "subtypes"));
    // As Wagic's ATokenCreator::resolve makes a token: a new instance in
    // the receiver's temp zone, resolved as a Spell (an instant or sorcery
    // stays where it is: Spell::resolve puts only permanents onto the
    // battlefield).
    Player *recv = G.P(controller);
    MTGCardInstance *inst = NEW MTGCardInstance(card, recv->game);
    recv->game->temp->addCard(inst);
    Spell *spell = NEW Spell(G.g, inst);
    spell->source->owner = G.P(owner);
    spell->source->lastController = recv;
    spell->source->isToken = 1;
    spell->source->fresh = 1;
    spell->source->entersBattlefield = 1;
    spell->resolve();
    MTGCardInstance *made = spell->source;
    delete spell;
    Result r;
    Loc l2 = G.locate(made);
    if (l2.kind != Z_BATTLEFIELD) {
        // Wagic made no permanent: the handle never exists
        if (made->currentZone) made->currentZone->removeCard(made, 0);
        r.outcome = "failed";
        r.error = "cannot_hold";
        return r;
    }
    made->summoningSickness = 0;
    Obj o;
    o.inst = made;
    o.serial = ++G.next_serial;
    o.owner = owner;
    G.objs[as] = o;
    G.order.push_back(as);
    G.refresh();
    if (!G.objs[as].exists) { r.outcome = "ceased"; event(r, as, "ceased"); }
    else { r.outcome = "moved"; event(r, as, "moved"); }
    return r;
}

Result step_control(Game &G, const json &s) {
    check_keys(s, {"card", "ref", "player"}, {"until"}, "control");
    int p = G.player_index(s.value("player", ""));
    if (p < 0) bad("unknown player");
    Result r;
    bool found;
    std::string h = object_of(G, s, found);
    if (!found) { r.outcome = "not_found"; r.error = "not_found"; return r; }
    Obj &o = G.objs[h];
    Loc l = G.locate(o.inst);
    // Wagic has no control change of a spell: changeController would put
    // it onto the battlefield, and with notZone the next
    // gameStateBasedEffects sets every card's controller back to the
    // owner of the per-player list that holds it.
    if (l.kind == Z_STACK) unsup("control of a spell on the stack (Wagic has no such effect)");
    if (l.kind != Z_BATTLEFIELD) { r.outcome = "rejected"; r.error = "no_controller"; return r; }
    if (o.inst->isPhased) { r.outcome = "failed"; r.error = "phased_out"; return r; }
    // Wagic moves the card to the new controller's inPlay list: the same
    // instance (putInZone makes no copy from inPlay to inPlay).
    if (l.player != p) o.inst->changeController(G.P(p));
    G.refresh();
    return r;
}

Result step_shuffle(Game &G, const json &s) {
    check_keys(s, {"zone", "order", "seed"}, {}, "shuffle");
    Loc l = parse_zone(G, s["zone"], 0, false);
    Result r;
    if (!per_player(l.kind) && l.kind != Z_OUTSIDE) {
        // a shared zone, in two Wagic lists: only its stack has an order
        std::vector<MTGCardInstance *> in_zone;
        for (int p = 0; p < 2; p++) for (auto *c : G.zone(l.kind, p)->cards) in_zone.push_back(c);
        if (s.contains("order")) {
            std::set<MTGCardInstance *> named;
            std::vector<MTGCardInstance *> top_first;
            for (auto &h : s["order"]) {
                std::string hs = h.get<std::string>();
                if (!G.objs.count(hs)) bad("unknown card '" + hs + "'");
                Obj &o = G.objs[hs];
                if (!o.exists || std::find(in_zone.begin(), in_zone.end(), o.inst) == in_zone.end() || named.count(o.inst)) {
                    r.outcome = "failed"; r.error = "not_in_zone"; return r;
                }
                named.insert(o.inst);
                top_first.push_back(o.inst);
            }
            if (named.size() != in_zone.size()) { r.outcome = "failed"; r.error = "not_in_zone"; return r; }
            if (l.kind == Z_STACK) {
                long n = (long)top_first.size();
                for (auto *c : top_first) G.stack_seq[c] = G.next_stack + n--;
                G.next_stack += (long)top_first.size();
            }
        } else if (l.kind == Z_STACK) {
            unsup("a random shuffle of the stack");
        }
        return r;
    }
    if (s.contains("order")) apply_shuffle(G, l, s["order"], r, true);
    else G.zone(l.kind, l.player)->shuffle();
    return r;
}

Result step_draw(Game &G, const json &s) {
    check_keys(s, {"player", "count"}, {"then"}, "draw");
    int p = G.player_index(s.value("player", ""));
    if (p < 0) bad("unknown player");
    int count = s.value("count", 1);
    Result r;
    bool any = false;
    for (int i = 0; i < count; i++) {
        MTGLibrary *lib = G.P(p)->game->library;
        std::string h;
        if (lib->nb_cards) {
            MTGCardInstance *top = lib->cards.back();
            for (auto &kv : G.objs) if (kv.second.exists && kv.second.inst == top) h = kv.first;
        }
        G.P(p)->game->drawFromLibrary();
        G.refresh();
        if (!h.empty()) {
            Obj &o = G.objs[h];
            if (!o.exists) event(r, h, "ceased");
            else { event(r, h, "moved"); any = true; }
        }
    }
    r.outcome = any ? "moved" : "no_move";
    return r;
}

Result step_mill(Game &G, const json &s) {
    check_keys(s, {"player", "count", "to"}, {}, "mill");
    int p = G.player_index(s.value("player", ""));
    if (p < 0) bad("unknown player");
    int count = s.value("count", 1);
    Result r;
    MTGLibrary *lib = G.P(p)->game->library;
    if (!lib->nb_cards) { r.outcome = "failed"; r.error = "empty"; return r; }
    std::string first;
    bool any = false;
    for (int i = 0; i < count && lib->nb_cards; i++) {
        MTGCardInstance *top = lib->cards.back();
        std::string h;
        for (auto &kv : G.objs) if (kv.second.exists && kv.second.inst == top) h = kv.first;
        if (h.empty()) throw ProtoError("internal", "a library card without a handle");
        json m = {{"to", s.value("to", json("graveyard"))}};
        json err = nullptr;
        size_t before = r.events.size();
        std::string oc = move_one(G, h, m, r, &err);
        if (r.events.size() == before) event(r, h, oc);
        if (oc == "moved") any = true;
        if (first.empty()) { first = oc; r.error = err; }
        if (oc != "moved" && oc != "ceased") break;  // it stayed on top
    }
    if (any) { r.outcome = "moved"; r.error = nullptr; } else r.outcome = first;
    return r;
}

Result step_remember(Game &G, const json &s) {
    check_keys(s, {"as", "card", "ref"}, {}, "remember");
    std::string as = s.value("as", "");
    if (as.empty() || G.refs.count(as)) bad("remember needs a new name in as");
    bool found;
    std::string h = object_of(G, s, found);
    Result r;
    if (!found) { r.outcome = "not_found"; r.error = "not_found"; return r; }
    G.refs[as] = {h, G.objs[h].serial};
    return r;
}

Result step_state_check(Game &G, const json &s) {
    if (!s.is_null() && !(s.is_object() && s.empty())) bad("state_check takes no options");
    std::map<std::string, bool> before;
    for (auto &h : G.order) before[h] = G.objs[h].exists;
    G.g->gameStateBasedEffects();
    G.refresh();
    Result r;
    bool ceased = false, moved = false;
    for (auto &h : G.order) {
        if (before[h] && !G.objs[h].exists) { event(r, h, "ceased"); ceased = true; }
    }
    (void)moved;
    r.outcome = ceased ? "ceased" : "no_move";
    return r;
}

Result do_step_inner(Game &G, const json &step, bool nested);

// A nested step (then:, do:) acts on the handle's current object.
Result do_nested(Game &G, const std::string &h, const json &step) {
    if (!step.is_object() || step.size() != 1) bad("a nested step is an object with one step name");
    std::string name = step.begin().key();
    static const std::set<std::string> nestable = {"move", "control", "phase", "turn_face", "put_under", "remember", "mark"};
    if (!nestable.count(name)) bad("step '" + name + "' can't be nested");
    json opts = step.begin().value().is_null() ? json::object() : step.begin().value();
    if (opts.contains("card") || opts.contains("ref")) bad("a nested step names no card or ref");
    if (opts.contains("then")) bad("a nested step has no then");
    if (opts.contains("player") && name == "move") bad("a nested move has no player");
    opts["card"] = h;
    return do_step_inner(G, json{{name, opts}}, true);
}

// Match the zone-change events Wagic sent during a step against the watches.
void process_watches(Game &G) {
    G.refresh();
    for (auto &ev : *G.events_ptr) {
        std::string h = G.handle_of(ev.card);
        if (h.empty()) continue;
        Loc from = G.loc_of_zone(ev.from), to = G.loc_of_zone(ev.to);
        if (to.kind == Z_NONE) continue;  // Wagic's garbage or temp zone: no zone of the rules
        for (auto &name : G.trigger_order) {
            Trigger &t = G.triggers[name];
            if (t.fired || t.handle != h) continue;
            auto matches = [&](const json &opt, const Loc &l) {
                if (opt.is_null() || opt == "any") return true;
                std::string txt = opt.get<std::string>();
                Loc w = parse_zone(G, opt, G.objs[h].owner, true);
                if (w.kind != l.kind) return false;
                if (txt.find('.') != std::string::npos && per_player(w.kind) && w.player != l.player) return false;
                return true;
            };
            if (!matches(t.from, from) || !matches(t.to, to)) continue;
            bool typed = true;
            for (auto &w : t.types) if (!ev.card->hasType(cap(w).c_str())) typed = false;
            if (!typed) continue;
            t.fired = true;
            t.tracked = ev.card;
            // its controller: who controlled the card just before it moved
            // (Wagic's previous instance), else its owner
            t.controller = G.objs[h].owner;
            MTGCardInstance *prev = ev.card->previous;
            if (prev && (from.kind == Z_BATTLEFIELD || from.kind == Z_STACK) && prev->controller())
                for (int p = 0; p < 2; p++) if (prev->controller() == G.P(p)) t.controller = p;
        }
    }
    G.events_ptr->clear();
}

Result step_watch(Game &G, const json &s) {
    check_keys(s, {"as", "card", "from", "to", "types"}, {"cause", "aura", "phase"}, "watch");
    std::string as = s.value("as", "");
    if (as.empty() || G.triggers.count(as)) bad("watch needs a new name in as");
    if (!s.contains("card") || !s["card"].is_string() || !G.objs.count(s["card"].get<std::string>())) bad("watch: unknown card");
    Trigger t;
    t.handle = s["card"].get<std::string>();
    t.from = s.contains("from") ? s["from"] : json(nullptr);
    t.to = s.contains("to") ? s["to"] : json(nullptr);
    for (const json *z : {&t.from, &t.to})
        if (!z->is_null() && *z != "any") parse_zone(G, *z, G.objs[t.handle].owner, true);
    t.types = words(s, "types");
    G.triggers[as] = t;
    G.trigger_order.push_back(as);
    return Result();
}

// A Wagic triggered ability acts on the instance its event carried
// (AAMover's target is that MTGCardInstance): it finds the card while it
// is still that instance, in whatever zone.
Result step_resolve(Game &G, const json &s) {
    check_keys(s, {"trigger", "do"}, {}, "resolve");
    std::string name = s.value("trigger", "");
    if (!G.triggers.count(name)) bad("unknown trigger '" + name + "'");
    Trigger &t = G.triggers[name];
    Result r;
    if (!t.fired) { r.outcome = "not_found"; r.error = "not_fired"; return r; }
    Obj &o = G.objs[t.handle];
    bool found = o.exists && o.inst == t.tracked;
    t.found = found;
    if (!found) { r.outcome = "not_found"; r.error = "not_found"; return r; }
    if (s.contains("do") && !s["do"].is_null()) {
        Result d = do_nested(G, t.handle, s["do"]);
        r.outcome = d.outcome;
        r.error = d.error;
        event(r, t.handle, d.outcome);
    }
    return r;
}

Result step_mark(Game &G, const json &s) {
    check_keys(s, {"card", "ref", "as", "kind"}, {"until"}, "mark");
    std::string as = s.value("as", "");
    if (as.empty() || G.marks.count(as)) bad("mark needs a new name in as");
    std::string kind = s.value("kind", "");
    static const std::set<std::string> kinds = {"counter", "effect", "characteristic", "prevention", "sticker", "permission", "spell_info"};
    if (!kinds.count(kind)) bad("mark: unknown kind '" + kind + "'");
    if (kind != "counter") unsup("marks of kind '" + kind + "' (only counters are Wagic counters here)");
    Result r;
    bool found;
    std::string h = object_of(G, s, found);
    G.marks.insert(as);
    if (!found) { r.outcome = "not_found"; r.error = "not_found"; return r; }
    Obj &o = G.objs[h];
    Loc l = G.locate(o.inst);
    if (l.kind == Z_OUTSIDE) { r.outcome = "rejected"; r.error = "unsupported"; return r; }
    if (o.inst->isPhased) { r.outcome = "failed"; r.error = "phased_out"; return r; }
    o.inst->counters->addCounter(("zo-mark-" + as).c_str(), 0, 0, true);
    return r;
}

Result step_phase(Game &G, const json &s) {
    check_keys(s, {"card", "ref", "out"}, {"with"}, "phase");
    bool out = s.value("out", true);
    Result r;
    bool found;
    std::string h = object_of(G, s, found);
    if (!found) { r.outcome = "not_found"; r.error = "not_found"; return r; }
    Obj &o = G.objs[h];
    Loc l = G.locate(o.inst);
    if (l.kind != Z_BATTLEFIELD) { r.outcome = "rejected"; r.error = "unsupported"; return r; }
    if ((bool)o.inst->isPhased == out) { r.outcome = "failed"; r.error = "already"; return r; }
    if (out) {
        AAPhaseOut *a = NEW AAPhaseOut(G.g, 990002, o.inst, o.inst);
        a->resolve();
        delete a;
    } else {
        // what Wagic's untap step does to a phased-out permanent
        o.inst->isPhased = false;
    }
    G.refresh();
    return r;
}

Result do_step_inner(Game &G, const json &step, bool nested) {
    if (!step.is_object() || step.size() != 1) bad("step: expected an object with one step name");
    std::string name = step.begin().key();
    const json &s = step.begin().value();
    G.refresh();
    if (name == "move") {
        json opts = s;
        json then = nullptr;
        if (opts.is_object() && opts.contains("then")) {
            if (nested) bad("a nested step has no then");
            then = opts["then"];
            opts.erase("then");
            if (!then.is_object() || then.size() != 1) bad("then: one step");
        }
        Result r = step_move(G, opts);
        if (!then.is_null()) {
            std::string h = opts.contains("card") ? opts["card"].get<std::string>() : G.refs[opts["ref"].get<std::string>()].handle;
            if (r.outcome == "moved" || r.outcome == "new_object_in_place" || r.outcome == "redirected") {
                // Wagic's mover gives its follow-up (andAbility) the new
                // instance putInZone returned, wherever it went
                Result t = do_nested(G, h, then);
                event(r, h, t.outcome);
            } else if (r.outcome == "ceased") {
                event(r, h, "not_found");
            } else {
                unsup("then: after a move that did not move the card (" + r.outcome + ")");
            }
        }
        return r;
    }
    if (name == "move_together") return step_move_together(G, s);
    if (name == "create") return step_create(G, s);
    if (name == "control") return step_control(G, s);
    if (name == "shuffle") return step_shuffle(G, s);
    if (name == "draw") return step_draw(G, s);
    if (name == "mill") return step_mill(G, s);
    if (name == "remember") return step_remember(G, s);
    if (name == "state_check") return step_state_check(G, s);
    if (name == "watch") return step_watch(G, s);
    if (name == "resolve") return step_resolve(G, s);
    if (name == "phase") return step_phase(G, s);
    if (name == "mark") return step_mark(G, s);
    static const std::set<std::string> known = {
        "turn_face", "reorder", "put_under", "zone_create", "zone_remove", "end_game",
        "replace", "choose_replacement", "look", "reveal", "attach", "end_turn", "replace_draw", "untap",
        "leave_game", "as_enters", "cant"};
    if (known.count(name)) unsup("step '" + name + "' is not implemented by this adapter");
    bad("unknown step '" + name + "'");
}

Result do_step(Game &G, const json &step) {
    G.refresh();
    G.events_ptr->clear();
    Result r = do_step_inner(G, step, false);
    process_watches(G);
    return r;
}

json result_json(const Result &r) {
    return {{"outcome", r.outcome}, {"error", r.error}, {"events", r.events}};
}

// ---------------------------------------------------------------- deltas

json delta(const json &prev, const json &cur) {
    json d = json::object();
    json objs = json::object();
    for (auto &kv : cur["objects"].items()) {
        if (!prev["objects"].contains(kv.key())) { objs[kv.key()] = kv.value(); continue; }
        const json &p = prev["objects"][kv.key()];
        json ch = json::object();
        for (auto &f : kv.value().items())
            if (!p.contains(f.key()) || p[f.key()] != f.value()) ch[f.key()] = f.value();
        if (!ch.empty()) objs[kv.key()] = ch;
    }
    d["objects"] = objs;
    for (const char *k : {"triggers", "refs", "players", "visible"}) {
        json part = json::object();
        for (auto &kv : cur[k].items()) {
            if (k == std::string("visible")) {
                std::set<std::string> a, b;
                for (auto &x : kv.value()) a.insert(x.get<std::string>());
                if (prev[k].contains(kv.key())) for (auto &x : prev[k][kv.key()]) b.insert(x.get<std::string>());
                if (a != b || !prev[k].contains(kv.key())) part[kv.key()] = kv.value();
            } else if (!prev[k].contains(kv.key()) || prev[k][kv.key()] != kv.value()) {
                part[kv.key()] = kv.value();
            }
        }
        if (!part.empty()) d[k] = part;
    }
    return d;
}

// ---------------------------------------------------------------- requests

std::string protocol = "zcp/1";

json hello_answer(const json &req) {
    std::vector<std::string> acc;
    if (req.contains("accepts") && req["accepts"].is_array())
        for (auto &a : req["accepts"]) if (a.is_string()) acc.push_back(a.get<std::string>());
    std::string p = req.value("protocol", "");
    if (std::find(acc.begin(), acc.end(), "zcp/2") != acc.end()) protocol = "zcp/2";
    else if (p == "zcp/1" || std::find(acc.begin(), acc.end(), "zcp/1") != acc.end()) protocol = "zcp/1";
    else throw ProtoError("unsupported", "this engine speaks zcp/1 and zcp/2");
    json a = {{"protocol", protocol},
              {"engine", ENGINE_NAME},
              {"version", std::string("git ") + WAGIC_COMMIT},
              {"rulesets", {"mtg-current"}},
              {"features", {"state_check.tokens", "state_check.draw_empty", "triggers", "phasing", "marks.counter"}}};
    // capabilities (zcp/2, PROTOCOL.md 7.1): the games the runner may send;
    // ZO_WAGIC_CAPABILITIES=0 leaves them out (to see what Wagic refuses)
    const char *cap = getenv("ZO_WAGIC_CAPABILITIES");
    if (protocol == "zcp/2" && !(cap && std::string(cap) == "0"))
        a["capabilities"] = {{"players", {2}},
                             {"zones", {"library", "hand", "graveyard", "battlefield", "stack", "exile", "command"}},
                             {"objects", {"card", "token"}}};
    return a;
}

json handle(const json &req) {
    std::string op = req["op"].get<std::string>();
    if (op == "hello") return hello_answer(req);
    if (op == "bye") return json::object();
    if (op == "setup") { do_setup(req); return json::object(); }
    if (op == "observe") {
        if (!game) bad("observe before setup");
        return game->observe();
    }
    if (op == "step") {
        if (!game) bad("step before setup");
        if (!req.contains("step")) bad("step needs step");
        Result r = do_step(*game, req["step"]);
        return result_json(r);
    }
    if (op == "run") {
        if (!req.contains("steps") || !req["steps"].is_array()) bad("run needs steps (a list)");
        std::string mode = req.value("observe", "end");
        if (mode != "each" && mode != "delta" && mode != "end") bad("run: observe is each, delta or end");
        if (mode == "delta" && protocol != "zcp/2") bad("run: observe delta needs zcp/2");
        json results = json::array(), obs = json::array();
        if (!game) {
            if (!req["steps"].empty()) bad("run before setup");
            return {{"results", results}, {"observations", obs}};
        }
        json prev = game->observe();
        for (auto &st : req["steps"]) {
            Result r = do_step(*game, st);
            results.push_back(result_json(r));
            if (mode == "each") obs.push_back(game->observe());
            else if (mode == "delta") { json cur = game->observe(); obs.push_back(delta(prev, cur)); prev = cur; }
        }
        if (mode == "end") obs.push_back(game->observe());
        return {{"results", results}, {"observations", obs}};
    }
    bad("unknown op (hello, setup, step, observe, run, bye)");
}

FILE *trace = nullptr;  // ZO_WAGIC_TRACE=FILE: a copy of the conversation

void answer(const json &a) {
    std::string s = a.dump();
    s += "\n";
    if (trace) { fputs(("< " + s).c_str(), trace); fflush(trace); }
    fwrite(s.data(), 1, s.size(), proto_out);
    fflush(proto_out);
}

}  // namespace

int main(int argc, char **argv) {
    std::string res;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--res" && i + 1 < argc) res = argv[++i];
        else { fprintf(stderr, "usage: %s --res PATH/TO/wagic/projects/mtg/bin/Res\n", argv[0]); return 2; }
    }
    if (res.empty()) {
        // default: the Res beside the executable (build.sh links it)
        char buf[4096];
        ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
        if (n > 0) { buf[n] = 0; res = std::string(buf); res = res.substr(0, res.rfind('/')) + "/Res"; }
    }
    // The protocol keeps the real stdout; Wagic's prints go to stderr.
    int fd = dup(1);
    dup2(2, 1);
    proto_out = fdopen(fd, "w");
    std::ios::sync_with_stdio(true);
    make_run_dir(res);

    std::string line;
    if (const char *t = getenv("ZO_WAGIC_TRACE")) trace = fopen(t, "a");
    while (std::getline(std::cin, line)) {
        if (trace) fprintf(trace, "> %s\n", line.c_str());
        json id = nullptr;
        json ans;
        bool bye = false;
        try {
            json req;
            try { req = json::parse(line); }
            catch (const std::exception &e) { throw ProtoError("bad_request", std::string("not JSON: ") + e.what()); }
            if (!req.is_object()) throw ProtoError("bad_request", "a request is a JSON object");
            if (!req.contains("id") || !req["id"].is_number_integer()) throw ProtoError("bad_request", "a request needs an integer id");
            id = req["id"];
            if (!req.contains("op") || !req["op"].is_string()) throw ProtoError("bad_request", "a request needs op");
            json r = handle(req);
            bye = req["op"] == "bye";
            ans = json::object();
            ans["id"] = id;
            ans["ok"] = true;
            for (auto &kv : r.items()) ans[kv.key()] = kv.value();
        } catch (const ProtoError &e) {
            ans = {{"id", id}, {"ok", false}, {"error", {{"code", e.code}, {"message", e.what()}}}};
        } catch (const json::exception &e) {
            ans = {{"id", id}, {"ok", false}, {"error", {{"code", "bad_request"}, {"message", e.what()}}}};
        } catch (const std::exception &e) {
            ans = {{"id", id}, {"ok", false}, {"error", {{"code", "internal"}, {"message", e.what()}}}};
        }
        answer(ans);
        if (bye) break;
    }
    fflush(proto_out);
    remove_tree(run_dir);
    _exit(0);  // Wagic's static teardown is not needed
}
