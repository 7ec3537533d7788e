// ZcpForge: zoneoracle's zcp adapter for Forge, the open-source Java engine
// for Magic: the Gathering. It speaks zcp/2 (or zcp/1) on stdin/stdout and
// plays every step with Forge's own game code: a Forge Game with registered
// players, cards built by Forge's CardFactory from small card scripts, moves
// through GameAction (moveTo*, exile, destroy, sacrifice), Player.discard,
// drawCards and mill, Card.phase, control through Forge's temporary
// controllers, and state-based actions through GameAction.checkStateEffects.
//
// What the adapter itself adds is bookkeeping, not rules: handles, the
// identity token (a counter bumped when Forge's card is no longer
// equalsWithTimestamp to the one seen before: Forge gives a card a new
// timestamp when it becomes a new object), references, zone names, deltas.
// The few checks made before calling Forge are listed where they are made.
//
// Usage: java ZcpForge FORGE_RES_DIR   (forge-gui/res of the pinned commit)
// Nothing but protocol answers is written to stdout: System.out, which
// Forge's code prints to, goes to stderr.

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import forge.ai.LobbyPlayerAi;
import forge.card.CardRarity;
import forge.card.CardRules;
import forge.deck.Deck;
import forge.game.Game;
import forge.game.GameRules;
import forge.game.GameStage;
import forge.game.GameType;
import forge.game.Match;
import forge.game.ability.AbilityKey;
import forge.game.card.Card;
import forge.game.card.CardCollection;
import forge.game.card.CardCollectionView;
import forge.game.card.CardFactory;
import forge.game.card.CardZoneTable;
import forge.game.player.Player;
import forge.game.player.RegisteredPlayer;
import forge.game.zone.Zone;
import forge.game.zone.ZoneType;
import forge.item.PaperCard;
import forge.util.Lang;
import forge.util.Localizer;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public final class ZcpForge {
    static final String ENGINE = "forge";
    static final String VERSION = "1.6.50-SNAPSHOT (Card-Forge/forge 71464684ff)";
    static final String RULESET = "mtg-current";
    // Declared features: only what Forge's own code does completely.
    static final String[] FEATURES = {"phasing", "state_check.tokens", "state_check.draw_empty", "visibility", "marks.counter", "face_down"};

    static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();

    /** A step the engine cannot carry out: answered `unsupported`. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String m) { super(m); }
    }
    /** A malformed request: answered `bad_request`. */
    static final class BadRequest extends RuntimeException {
        BadRequest(String m) { super(m); }
    }

    // Zones of mtg-current and the Forge zone type behind each.
    static final Map<String, ZoneType> ZONES = new LinkedHashMap<>();
    static List<ZoneType> SEARCH;
    // Called once Forge's Localizer is ready (ZoneType's initialiser reads it).
    static void initZones() {
        ZONES.put("library", ZoneType.Library);
        ZONES.put("hand", ZoneType.Hand);
        ZONES.put("graveyard", ZoneType.Graveyard);
        ZONES.put("battlefield", ZoneType.Battlefield);
        ZONES.put("stack", ZoneType.Stack);
        ZONES.put("exile", ZoneType.Exile);
        ZONES.put("command", ZoneType.Command);
        ZONES.put("ante", ZoneType.Ante);
        ZONES.put("outside", ZoneType.Sideboard); // Forge's "outside the game"
    }
    static final List<String> FACE_DOWN_ZONES = Arrays.asList("battlefield", "stack", "exile", "command");
    static final List<String> PER_PLAYER = Arrays.asList("library", "hand", "graveyard");
    static void initSearch() {
        SEARCH = Arrays.asList(ZoneType.Library, ZoneType.Hand, ZoneType.Graveyard,
            ZoneType.Battlefield, ZoneType.Exile, ZoneType.Command, ZoneType.Ante, ZoneType.Sideboard);
    }

    static PrintStream out;
    static String protocol = "zcp/1";

    // ---- the game -----------------------------------------------------------------
    static final class Obj {
        final String handle;
        int id;            // Forge card id (kept across Forge's copies of the card)
        Card last;         // the Forge card as last seen
        long lastTs;       // its timestamp then
        int token;         // our identity token
        // marks of kind counter: the mark's name and the Forge counter type standing for it
        final LinkedHashMap<String, forge.game.card.CounterType> counters = new LinkedHashMap<>();
        boolean exists = true;
        Obj(String h) { handle = h; }
    }
    static final class Ref {
        final String handle; final int token;
        Ref(String h, int t) { handle = h; token = t; }
    }

    static Game game;
    static List<Player> players;
    static Map<String, Player> byName;
    static LinkedHashMap<String, Obj> objs;
    static LinkedHashMap<String, Ref> refs;
    static int nextToken;
    static JsonObject lastObs;

    public static void main(String[] args) throws Exception {
        out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        System.setOut(System.err);
        String res = args.length > 0 ? args[0] : "res";
        Lang.createInstance("en-US");
        Localizer.getInstance().initialize("en-US", res + "/languages/");
        initZones();
        initSearch();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        // ZO_FORGE_TRACE=FILE: a copy of every request and answer, for debugging the adapter.
        String tracePath = System.getenv("ZO_FORGE_TRACE");
        PrintStream trace = tracePath == null || tracePath.isEmpty() ? null
                : new PrintStream(new FileOutputStream(tracePath, true), true, "UTF-8");
        while ((line = in.readLine()) != null) {
            JsonObject ans = answer(line);
            if (trace != null) trace.println("> " + line + "\n< " + GSON.toJson(ans));
            out.print(GSON.toJson(ans));
            out.print('\n');
            out.flush();
        }
        out.flush();
        System.exit(0);
    }

    static JsonObject error(JsonElement id, String code, String msg) {
        JsonObject o = new JsonObject();
        o.add("id", id);
        o.addProperty("ok", false);
        JsonObject e = new JsonObject();
        e.addProperty("code", code);
        e.addProperty("message", msg == null ? "error" : msg);
        o.add("error", e);
        return o;
    }

    static JsonObject answer(String line) {
        JsonElement req;
        try {
            req = JsonParser.parseString(line);
        } catch (Exception e) {
            return error(JsonNull.INSTANCE, "bad_request", "not JSON: " + e.getMessage());
        }
        if (req == null || !req.isJsonObject()) {
            return error(JsonNull.INSTANCE, "bad_request", "a request is a JSON object");
        }
        JsonObject r = req.getAsJsonObject();
        JsonElement idEl = r.get("id");
        if (idEl == null || !idEl.isJsonPrimitive() || !idEl.getAsJsonPrimitive().isNumber()
                || !isInteger(idEl.getAsJsonPrimitive())) {
            return error(JsonNull.INSTANCE, "bad_request", "a request needs an integer id");
        }
        JsonElement id = new JsonPrimitive(idEl.getAsLong());
        JsonElement opEl = r.get("op");
        if (opEl == null || !opEl.isJsonPrimitive() || !opEl.getAsJsonPrimitive().isString()) {
            return error(id, "bad_request", "a request needs op");
        }
        String op = opEl.getAsString();
        try {
            JsonObject res;
            switch (op) {
                case "hello": res = hello(r); break;
                case "setup": res = setup(r); break;
                case "step": {
                    if (game == null) throw new BadRequest("step before setup");
                    JsonElement st = r.get("step");
                    res = stepResult(step(st, null));
                    lastObs = observation();
                    break;
                }
                case "observe": {
                    if (game == null) throw new BadRequest("observe before setup");
                    res = observation();
                    lastObs = res.deepCopy();
                    break;
                }
                case "run": res = run(r); break;
                case "bye": res = new JsonObject(); break;
                default:
                    return error(id, "bad_request", "unknown op (hello, setup, step, observe, run, bye)");
            }
            JsonObject a = new JsonObject();
            a.add("id", id);
            a.addProperty("ok", true);
            for (Map.Entry<String, JsonElement> e : res.entrySet()) a.add(e.getKey(), e.getValue());
            if (op.equals("bye")) {
                out.print(GSON.toJson(a));
                out.print('\n');
                out.flush();
                System.exit(0);
            }
            return a;
        } catch (Unsupported e) {
            return error(id, "unsupported", e.getMessage());
        } catch (BadRequest e) {
            return error(id, "bad_request", e.getMessage());
        } catch (Throwable e) {
            e.printStackTrace(System.err);
            return error(id, "internal", "Forge threw " + e);
        }
    }

    static boolean isInteger(JsonPrimitive p) {
        try {
            double d = p.getAsDouble();
            return d == Math.rint(d) && !p.getAsString().contains(".") && !p.getAsString().contains("e")
                    && !p.getAsString().contains("E");
        } catch (Exception e) { return false; }
    }

    // ---- hello ------------------------------------------------------------------
    static JsonObject hello(JsonObject r) {
        JsonElement acc = r.get("accepts");
        boolean v2 = false, v1 = false;
        if (acc != null && acc.isJsonArray()) {
            for (JsonElement e : acc.getAsJsonArray()) {
                if (e.isJsonPrimitive() && e.getAsString().equals("zcp/2")) v2 = true;
                if (e.isJsonPrimitive() && e.getAsString().equals("zcp/1")) v1 = true;
            }
        }
        JsonElement p = r.get("protocol");
        if (p != null && p.isJsonPrimitive() && p.getAsString().equals("zcp/1")) v1 = true;
        if (!v1 && !v2) throw new Unsupported("this engine speaks zcp/1 and zcp/2");
        protocol = v2 ? "zcp/2" : "zcp/1";
        JsonObject o = new JsonObject();
        if (v2) o.addProperty("protocol", "zcp/2");
        o.addProperty("engine", ENGINE);
        o.addProperty("version", VERSION);
        JsonArray rs = new JsonArray();
        rs.add(RULESET);
        o.add("rulesets", rs);
        JsonArray fs = new JsonArray();
        for (String f : FEATURES) fs.add(f);
        o.add("features", fs);
        // `capabilities` (zcp/2, PROTOCOL.md 7.1): the games the runner may send;
        // ZO_FORGE_CAPABILITIES=0 leaves it out (to see what Forge refuses).
        if (v2 && !"0".equals(System.getenv("ZO_FORGE_CAPABILITIES"))) {
            // What a Forge game can hold: 2 to 8 players (Forge's own lobby
            // goes to 8); the zones of mtg-current Forge has (Forge's ante and
            // exile are per player, shown here as the shared zones); cards and
            // tokens as objects (an ability on the stack or a spell copy is not
            // a card in a zone in Forge: the adapter does not set them up).
            JsonObject cap = new JsonObject();
            JsonArray pl = new JsonArray();
            for (int i = 2; i <= 8; i++) pl.add(i);
            cap.add("players", pl);
            JsonArray zs = new JsonArray();
            for (String z : new String[]{"library", "hand", "battlefield", "graveyard", "stack", "exile", "command", "ante"}) zs.add(z);
            cap.add("zones", zs);
            JsonArray ob = new JsonArray();
            ob.add("card");
            ob.add("token");
            cap.add("objects", ob);
            // where Forge keeps a card face down (its CardView has no face-down
            // card in a library, hand, graveyard or ante)
            JsonArray fd = new JsonArray();
            for (String z : new String[]{"battlefield", "stack", "exile", "command"}) fd.add(z);
            cap.add("face_down", fd);
            o.add("capabilities", cap);
        }
        return o;
    }

    // ---- setup ------------------------------------------------------------------
    static JsonObject setup(JsonObject r) {
        JsonElement rsEl = r.get("ruleset"), plEl = r.get("players"), cardsEl = r.get("cards");
        if (rsEl == null || !rsEl.isJsonPrimitive() || !rsEl.getAsJsonPrimitive().isString()
                || plEl == null || !plEl.isJsonArray() || cardsEl == null || !cardsEl.isJsonObject()) {
            throw new BadRequest("setup needs ruleset (text), players (list), cards (object)");
        }
        game = null;
        if (!rsEl.getAsString().equals(RULESET)) throw new Unsupported("unknown rule set " + rsEl.getAsString());
        List<String> names = new ArrayList<>();
        for (JsonElement e : plEl.getAsJsonArray()) {
            if (!e.isJsonPrimitive()) throw new BadRequest("players: names are text");
            names.add(e.getAsString());
        }
        if (names.size() < 2) throw new Unsupported("a Forge game has at least two players");
        if (names.size() > 8) throw new Unsupported("a Forge game has at most eight players");
        // Check every card before building anything.
        JsonObject cards = cardsEl.getAsJsonObject();
        for (Map.Entry<String, JsonElement> e : cards.entrySet()) {
            if (!e.getValue().isJsonObject()) throw new BadRequest("card " + e.getKey() + " is not an object");
            JsonObject c = e.getValue().getAsJsonObject();
            String kind = str(c, "kind", "card");
            if (!kind.equals("card") && !kind.equals("token")) throw new Unsupported("object kind " + kind + " (the adapter sets up cards and tokens only)");
            if (c.has("under")) throw new Unsupported("cards under cards");
            String owner = str(c, "owner", null);
            if (owner == null || !names.contains(owner)) throw new BadRequest("card " + e.getKey() + ": unknown owner");
            String zone = str(c, "zone", null);
            if (zone == null) throw new BadRequest("card " + e.getKey() + ": no zone");
            String[] z = splitZone(zone, owner, names);
            if (kind.equals("token") && !z[1].equals("battlefield")) throw new BadRequest("a token outside the battlefield");
            if (str(c, "face", "up").equals("down") && !FACE_DOWN_ZONES.contains(z[1]))
                throw new Unsupported("a face-down card in the " + z[1] + " (Forge has face-down cards on the battlefield, the stack, in exile and the command zone)");
        }

        List<RegisteredPlayer> regs = new ArrayList<>();
        for (String n : names) regs.add(new RegisteredPlayer(new Deck()).setPlayer(new LobbyPlayerAi(n, null)));
        GameRules rules = new GameRules(GameType.Constructed);
        Match match = new Match(rules, regs, "zoneoracle");
        Game g = new Game(regs, rules, match);
        g.setAge(GameStage.Play);
        game = g;
        players = new ArrayList<>(g.getPlayers());
        byName = new HashMap<>();
        for (int i = 0; i < players.size(); i++) byName.put(names.get(i), players.get(i));
        // As Forge's match host does for its views: who is whose opponent
        // (CardView.canBeShownTo reads it for cards outside the game).
        for (Player p : players) p.updateOpponentsForView();
        objs = new LinkedHashMap<>();
        refs = new LinkedHashMap<>();
        markNames.clear();
        nextToken = 0;
        lastObs = null;

        // Place the cards: ordered zones by position (0 = top).
        List<Map.Entry<String, JsonElement>> list = new ArrayList<>(cards.entrySet());
        list.sort((a, b) -> Integer.compare(a.getValue().getAsJsonObject().has("position") ? a.getValue().getAsJsonObject().get("position").getAsInt() : 0,
                b.getValue().getAsJsonObject().has("position") ? b.getValue().getAsJsonObject().get("position").getAsInt() : 0));
        Map<Zone, List<Object[]>> perZone = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> e : list) {
            JsonObject c = e.getValue().getAsJsonObject();
            String handle = e.getKey();
            Player owner = byName.get(str(c, "owner", null));
            String[] z = splitZone(str(c, "zone", null), str(c, "owner", null), names);
            Player zp = byName.get(z[0]);
            Card card = makeCard(handle, owner, c, str(c, "kind", "card").equals("token"));
            if (str(c, "face", "up").equals("down")) card.turnFaceDown(true);
            Zone zone;
            if (z[1].equals("battlefield") || z[1].equals("stack")) {
                String ctl = str(c, "controller", str(c, "owner", null));
                Player cp = byName.get(ctl);
                if (cp == null) throw new BadRequest("unknown controller " + ctl);
                card.setController(cp, g.getNextTimestamp());
                zone = z[1].equals("stack") ? g.getStackZone() : cp.getZone(ZoneType.Battlefield);
            } else {
                zone = zp.getZone(ZONES.get(z[1]));
            }
            perZone.computeIfAbsent(zone, k -> new ArrayList<>()).add(new Object[]{handle, card});
        }
        for (Map.Entry<Zone, List<Object[]>> e : perZone.entrySet()) {
            Zone zone = e.getKey();
            List<Object[]> l = new ArrayList<>(e.getValue());
            // Forge keeps a library top first, a graveyard and the stack top last.
            if (!zone.is(ZoneType.Library)) Collections.reverse(l);
            for (Object[] hc : l) {
                Card card = (Card) hc[1];
                card.setTimestamp(g.getNextTimestamp());
                zone.add(card); // as Forge's puzzle set-up places cards
                Obj o = new Obj((String) hc[0]);
                o.id = card.getId();
                o.last = card;
                o.lastTs = card.getTimestamp();
                o.token = ++nextToken;
                objs.put(o.handle, o);
            }
        }
        // Keep the handles in the request's order for the answers.
        LinkedHashMap<String, Obj> ordered = new LinkedHashMap<>();
        for (String h : cards.keySet()) ordered.put(h, objs.get(h));
        objs = ordered;
        g.getAction().checkStaticAbilities();
        return new JsonObject();
    }

    static String str(JsonObject o, String k, String dflt) {
        JsonElement e = o.get(k);
        if (e == null || e.isJsonNull()) return dflt;
        if (!e.isJsonPrimitive()) throw new BadRequest(k + " must be text");
        return e.getAsString();
    }

    /** [player or null, type]: a zone as the case language writes it. */
    static String[] splitZone(String zone, String owner, List<String> names) {
        String p = null, t = zone;
        int dot = zone.indexOf('.');
        if (dot >= 0) {
            p = zone.substring(0, dot);
            t = zone.substring(dot + 1);
            if (!names.contains(p)) throw new BadRequest("unknown player in zone " + zone);
            if (t.contains(".")) throw new BadRequest("no zone " + zone + " in mtg-current");
        }
        if (!ZONES.containsKey(t)) throw new BadRequest("unknown zone " + zone);
        if (p == null) p = owner;
        return new String[]{p, t};
    }

    static int cardSerial = 0;
    static Card makeCard(String handle, Player owner, JsonObject c, boolean token) {
        List<String> types = new ArrayList<>(), subs = new ArrayList<>();
        if (c.has("types") && c.get("types").isJsonArray()) for (JsonElement e : c.getAsJsonArray("types")) types.add(e.getAsString());
        if (c.has("subtypes") && c.get("subtypes").isJsonArray()) for (JsonElement e : c.getAsJsonArray("subtypes")) subs.add(e.getAsString());
        return buildCard(handle, owner, types, subs, token);
    }

    static Card buildCard(String handle, Player owner, List<String> types, List<String> subs, boolean token) {
        StringBuilder tl = new StringBuilder();
        List<String> all = new ArrayList<>();
        for (String t : types) all.add(t);
        for (String t : subs) all.add(t);
        if (all.contains("aura") && !all.contains("enchantment")) all.add(0, "enchantment");
        boolean creature = false;
        List<String> core = new ArrayList<>(), rest = new ArrayList<>();
        for (String t : all) {
            if (t.equals("token")) continue;
            String w = cap(t);
            if (Arrays.asList("Creature", "Artifact", "Enchantment", "Land", "Planeswalker", "Instant", "Sorcery",
                    "Plane", "Phenomenon", "Scheme", "Vanguard", "Conspiracy", "Dungeon", "Tribal", "Battle").contains(w)) {
                if (!core.contains(w)) core.add(w);
                if (w.equals("Creature")) creature = true;
            } else if (!rest.contains(w)) {
                rest.add(w);
            }
        }
        if (core.isEmpty()) core.add("Artifact"); // a card needs a type line; typeless cases name none
        for (String w : core) tl.append(tl.length() > 0 ? " " : "").append(w);
        for (String w : rest) tl.append(" ").append(w);
        List<String> script = new ArrayList<>();
        script.add("Name:zo " + handle + " " + (++cardSerial));
        script.add("ManaCost:no cost");
        script.add("Types:" + tl);
        if (creature) script.add("PT:1/1");
        if (core.contains("Enchantment") && rest.contains("Aura")) {
            script.add("K:Enchant creature");
            script.add("A:SP$ Attach | Cost$ 0 | ValidTgts$ Creature | AILogic$ Pump");
        }
        script.add("Oracle:");
        CardRules rules = CardRules.fromScript(script);
        PaperCard pc = new PaperCard(rules, "ZO", CardRarity.Common);
        Card card = CardFactory.getCard(pc, owner, game);
        if (token) card.setToken(true);
        return card;
    }

    static String cap(String s) {
        String[] parts = s.split("_");
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            if (p.isEmpty()) continue;
            if (b.length() > 0) b.append(' ');
            b.append(Character.toUpperCase(p.charAt(0))).append(p.substring(1));
        }
        return b.toString();
    }

    // ---- where things are --------------------------------------------------------
    static final class Where {
        Card card; Zone zone; String name; String type; Player zonePlayer;
    }

    /** Finds the Forge card with this id in any zone of the game. */
    static Where locate(int id) {
        for (Player p : players) {
            for (ZoneType zt : SEARCH) {
                Zone z = p.getZone(zt);
                if (z == null) continue;
                for (Card c : z.getCards(false)) {
                    if (c.getId() == id) return where(c, z, p);
                }
            }
        }
        for (Card c : game.getStackZone().getCards(false)) {
            if (c.getId() == id) return where(c, game.getStackZone(), null);
        }
        return null;
    }

    static Where where(Card c, Zone z, Player p) {
        Where w = new Where();
        w.card = c;
        w.zone = z;
        w.zonePlayer = p;
        ZoneType zt = z.getZoneType();
        String t = null;
        for (Map.Entry<String, ZoneType> e : ZONES.entrySet()) if (e.getValue() == zt) t = e.getKey();
        w.type = t;
        w.name = PER_PLAYER.contains(t) ? nameOf(p) + "." + t : t;
        return w;
    }

    static String nameOf(Player p) {
        for (Map.Entry<String, Player> e : byName.entrySet()) if (e.getValue() == p) return e.getKey();
        return p == null ? null : p.getName();
    }

    static Integer positionOf(Where w) {
        if (!w.zone.is(ZoneType.Library) && !w.zone.is(ZoneType.Graveyard) && !w.zone.is(ZoneType.Stack)) return null;
        List<Card> l = com.google.common.collect.Lists.newArrayList(w.zone.getCards(false));
        int i = l.indexOf(w.card);
        if (i < 0) return null;
        return w.zone.is(ZoneType.Library) ? i : l.size() - 1 - i;
    }

    /** Brings every handle's identity up to date from where Forge now holds its card. */
    static void refresh() {
        for (Obj o : objs.values()) {
            if (!o.exists) continue;
            Where w = locate(o.id);
            if (w == null) {
                o.exists = false;
                continue;
            }
            // Same object = Forge's Card.equalsWithTimestamp with the card as seen before.
            if (!(w.card.equals(o.last) && w.card.getTimestamp() == o.lastTs)) {
                o.token = ++nextToken;
            }
            o.last = w.card;
            o.lastTs = w.card.getTimestamp();
        }
    }

    // ---- steps ------------------------------------------------------------------
    static final class Result {
        String outcome = "no_move";
        String error = null;
        List<String[]> events = new ArrayList<>();
        Result(String o) { outcome = o; }
        Result(String o, String e) { outcome = o; error = e; }
    }

    static JsonObject stepResult(Result r) {
        JsonObject o = new JsonObject();
        o.addProperty("outcome", r.outcome);
        if (r.error != null || protocol.equals("zcp/1")) o.add("error", r.error == null ? JsonNull.INSTANCE : new JsonPrimitive(r.error));
        JsonArray ev = new JsonArray();
        for (String[] e : r.events) {
            JsonObject x = new JsonObject();
            x.addProperty("handle", e[0]);
            x.addProperty("outcome", e[1]);
            ev.add(x);
        }
        if (ev.size() > 0 || protocol.equals("zcp/1")) o.add("events", ev);
        return o;
    }

    static JsonObject opts(JsonElement v) {
        if (v == null || v.isJsonNull()) return new JsonObject();
        if (!v.isJsonObject()) throw new BadRequest("step options must be an object");
        return v.getAsJsonObject();
    }

    static final List<String> NESTABLE = Arrays.asList("move", "control", "phase", "remember", "mark", "turn_face");

    /** Runs one step; `target` is the object of a nested step (then:). */
    static Result step(JsonElement st, Obj target) {
        if (st == null || !st.isJsonObject() || st.getAsJsonObject().size() != 1) {
            throw new BadRequest("step: expected an object with one step name");
        }
        Map.Entry<String, JsonElement> e = st.getAsJsonObject().entrySet().iterator().next();
        String kind = e.getKey();
        JsonObject o = opts(e.getValue());
        if (target != null && !NESTABLE.contains(kind)) throw new Unsupported("nested step " + kind);
        switch (kind) {
            case "move": return move(o, target);
            case "move_together": return moveTogether(o);
            case "create": return create(o);
            case "control": return control(o, target);
            case "phase": return phase(o, target);
            case "draw": return draw(o);
            case "mill": return mill(o);
            case "shuffle": return shuffle(o);
            case "state_check": return stateCheck();
            case "remember": return remember(o, target);
            case "mark": return mark(o, target);
            case "turn_face": return turnFace(o, target);
            case "watch": case "resolve": case "replace": case "choose_replacement": case "reorder":
            case "put_under": case "zone_create": case "zone_remove": case "end_game": case "look":
            case "reveal": case "attach": case "end_turn": case "replace_draw": case "untap": case "leave_game":
            case "as_enters": case "cant":
                throw new Unsupported("step " + kind + " is not implemented by the Forge adapter");
            default:
                throw new BadRequest("unknown step '" + kind + "'");
        }
    }

    /** The object a step names: card: or ref:, or the nested target. Null when a ref finds nothing. */
    static Obj object(JsonObject o, Obj target, boolean[] notFound) {
        if (target != null) {
            if (o.has("card") || o.has("ref")) throw new BadRequest("a nested step names no object");
            return target;
        }
        if (o.has("card") == o.has("ref")) throw new BadRequest("a step names card or ref");
        if (o.has("card")) {
            Obj x = objs.get(o.get("card").getAsString());
            if (x == null) throw new BadRequest("unknown card '" + o.get("card").getAsString() + "'");
            if (!x.exists) { notFound[0] = true; return x; }
            return x;
        }
        Ref r = refs.get(o.get("ref").getAsString());
        if (r == null) throw new BadRequest("unknown reference '" + o.get("ref").getAsString() + "'");
        Obj x = objs.get(r.handle);
        if (!x.exists || x.token != r.token) notFound[0] = true;
        return x;
    }

    static Map<String, Boolean> PUBLIC = new HashMap<>();
    static {
        for (String z : new String[]{"battlefield", "graveyard", "stack", "exile", "command", "ante"}) PUBLIC.put(z, true);
    }

    static Result move(JsonObject o, Obj target) {
        for (String k : o.keySet()) {
            if (!Arrays.asList("card", "ref", "to", "from", "position", "by", "cause", "choose", "shuffle", "seed", "then", "face", "player", "costs").contains(k))
                throw new BadRequest("move: unknown option " + k);
        }
        if (o.has("player")) throw new Unsupported("move with player (feature performer)");
        if (o.has("costs")) throw new Unsupported("move with costs (feature casting)");
        if (str(o, "face", "up").equals("down") && !FACE_DOWN_ZONES.contains(splitZone(str(o, "to", ""), null, new ArrayList<>(byName.keySet()))[1]))
            throw new Unsupported("a card moved face down to a zone where Forge keeps no face-down cards");
        if (o.has("then")) {
            JsonElement th = o.get("then");
            if (!th.isJsonObject() || th.getAsJsonObject().size() != 1) throw new BadRequest("then: one step");
            String k = th.getAsJsonObject().keySet().iterator().next();
            if (!NESTABLE.contains(k)) throw new Unsupported("then: " + k);
        }
        if (!o.has("to")) throw new BadRequest("move needs to");
        boolean[] nf = {false};
        Obj x = object(o, target, nf);
        List<String> names = new ArrayList<>(byName.keySet());
        String to = str(o, "to", null);
        Player owner = null;
        Where w0 = nf[0] ? null : locate(x.id);
        if (w0 == null) return new Result("not_found", "not_found");
        owner = w0.card.getOwner();
        String[] dest = splitZone(to, nameOf(owner), names);
        if (o.has("from")) {
            String from = str(o, "from", null);
            String[] f = splitZone(from, nameOf(owner), names);
            boolean inIt = f[1].equals(w0.type) && (!PER_PLAYER.contains(f[1]) || !from.contains(".") || f[0].equals(nameOf(w0.zonePlayer)));
            if (!inIt) return new Result("failed", "not_in_zone");
        }
        // Forge treats a phased-out permanent as though it did not exist: no effect finds it.
        if (w0.card.isPhasedOut()) return new Result("failed", "phased_out");
        if (dest[1].equals("battlefield") && w0.card.isAura()) {
            // Forge (rightly, CR 303.4g) keeps an Aura out of the battlefield when it has
            // nothing to enchant; the case language says nothing of what it would enchant.
            throw new Unsupported("an Aura put onto the battlefield: the step does not say what it enchants");
        }
        Result r = doMove(x, w0, dest, to, o);
        if (o.has("shuffle") && !r.outcome.equals("not_found")) {
            Where w1 = locate(x.id);
            if (w1 != null) shuffleZone(w1.zone, o.get("shuffle"), o.has("seed") ? o.get("seed").getAsLong() : 0);
        }
        refresh();
        List<String[]> evs = new ArrayList<>();
        if (!Arrays.asList("failed", "stayed", "rejected", "no_move", "not_found").contains(r.outcome)) {
            evs.add(new String[]{x.handle, r.outcome});
        }
        r.events.addAll(0, evs);
        if (o.has("then") && !r.outcome.equals("not_found") && !r.outcome.equals("failed")) {
            // CR 400.7j (mtg-current): the rest of the effect finds the moved object in a public zone.
            Where w1 = x.exists ? locate(x.id) : null;
            if (w1 != null && PUBLIC.containsKey(w1.type)) {
                Result t = step(o.get("then"), x);
                r.events.addAll(withOwn(t, x));
            } else {
                r.events.add(new String[]{x.handle, "not_found"});
            }
        }
        return r;
    }

    /** A nested step's events, then its own result as one more event for its object. */
    static List<String[]> withOwn(Result t, Obj x) {
        List<String[]> l = new ArrayList<>();
        for (String[] e : t.events) if (!e[0].equals(x.handle)) l.add(e);
        l.add(new String[]{x.handle, t.outcome});
        return l;
    }

    /** Moves one object with Forge; the outcome is read from where Forge left it. */
    static Result doMove(Obj x, Where w0, String[] dest, String to, JsonObject o) {
        Card c = w0.card;
        Player owner = c.getOwner();
        String type = dest[1];
        ZoneType zt = ZONES.get(type);
        String cause = str(o, "cause", "");
        boolean namedOther = to.contains(".") && PER_PLAYER.contains(type) && !dest[0].equals(nameOf(owner));
        int tokenBefore = x.token;
        String zoneBefore = w0.name;
        Map<AbilityKey, Object> params = AbilityKey.newMap();
        params.put(AbilityKey.LastStateBattlefield, game.getLastStateBattlefield());
        params.put(AbilityKey.LastStateGraveyard, game.getLastStateGraveyard());
        CardZoneTable table = new CardZoneTable();
        JsonElement pos = o.get("position");
        boolean onBattlefield = w0.zone.is(ZoneType.Battlefield);
        boolean faceDown = str(o, "face", "up").equals("down");
        String destName0 = PER_PLAYER.contains(type) ? nameOf(owner) + "." + type : type;
        boolean sameZone = destName0.equals(w0.name);
        if (faceDown && type.equals("battlefield") && !sameZone) {
            // As Forge's manifest: the card is turned face down, then put onto the battlefield.
            c.turnFaceDown(true);
        }
        if (type.equals("graveyard") && cause.equals("destroy") && onBattlefield) {
            game.getAction().destroy(c, null, false, table, params);
        } else if (type.equals("graveyard") && cause.equals("sacrifice") && onBattlefield) {
            game.getAction().sacrifice(c, null, true, table, params);
        } else if (type.equals("graveyard") && cause.equals("discard") && w0.zone.is(ZoneType.Hand)) {
            owner.discard(c, null, true, table, params);
        } else if (type.equals("exile")) {
            game.getAction().exile(c, null, params);
        } else if (type.equals("library")) {
            int p = 0;
            if (pos != null && pos.isJsonPrimitive()) {
                if (pos.getAsJsonPrimitive().isNumber()) p = pos.getAsInt();
                else if (pos.getAsString().equals("bottom")) p = -1;
            }
            game.getAction().moveToLibrary(c, p, null, params);
        } else if ((type.equals("graveyard") || type.equals("stack")) && pos != null && !(pos.isJsonPrimitive() && pos.getAsString().equals("top"))) {
            Zone z = type.equals("stack") ? game.getStackZone() : owner.getZone(ZoneType.Graveyard);
            int size = z.size() - (z.contains(c) ? 1 : 0);
            int idx;
            if (pos.getAsJsonPrimitive().isNumber()) idx = Math.max(0, size - Math.min(pos.getAsInt(), size));
            else idx = 0; // bottom
            game.getAction().moveTo(z, c, idx, null);
        } else if (type.equals("battlefield")) {
            game.getAction().moveToPlay(c, c.getController(), null, params);
        } else if (type.equals("stack")) {
            game.getAction().moveToStack(c, null, params);
        } else {
            game.getAction().moveTo(zt, c, null, params);
        }
        table.triggerChangesZoneAll(game, null);
        Where wf = locate(x.id);
        if (wf != null && (!wf.name.equals(w0.name) || wf.card != c || wf.card.getTimestamp() != x.lastTs)) {
            // As Forge's ChangeZone effect with ExileFaceDown: the moved card is turned
            // face down where it arrived. Without face: down, its face is what Forge's
            // changeZone leaves (it turns a card face up in a graveyard, hand, library or exile).
            if (faceDown && !wf.card.isFaceDown()) wf.card.turnFaceDown(true);
        } else if (faceDown && type.equals("battlefield") && !sameZone && wf != null && wf.card.isFaceDown()) {
            wf.card.forceTurnFaceUp(); // it did not move: undo the turn
        }
        refresh();
        Where w1 = x.exists ? locate(x.id) : null;
        if (w1 == null) {
            x.exists = false;
            return new Result("ceased");
        }
        String destName = PER_PLAYER.contains(type) ? nameOf(owner) + "." + type : type;
        if (!w1.name.equals(zoneBefore)) {
            if (namedOther && w1.name.equals(destName)) return new Result("redirected");
            return new Result("moved");
        }
        if (x.token != tokenBefore) return new Result("new_object_in_place");
        if (destName.equals(zoneBefore)) return new Result("no_move");
        // Forge left it where it was.
        if (c.isToken()) return new Result("stayed", "token_left");
        return new Result("stayed", "cannot_hold");
    }

    static Result moveTogether(JsonObject o) {
        if (o.has("player") || o.has("order_by")) throw new Unsupported("move_together with player (feature performer)");
        if (!o.has("moves") || !o.get("moves").isJsonArray()) throw new BadRequest("move_together needs moves");
        List<JsonObject> moves = new ArrayList<>();
        for (JsonElement m : o.getAsJsonArray("moves")) {
            JsonObject mo = opts(m);
            if (mo.has("then") || mo.has("ref") || !mo.has("card")) throw new BadRequest("move_together: each move names a card, without then");
            JsonElement mp = mo.get("position");
            if (mp != null && mp.isJsonPrimitive() && mp.getAsJsonPrimitive().isNumber())
                throw new Unsupported("move_together with a position index (Forge moves one card at a time; the group's place is not Forge's to say)");
            if (!objs.containsKey(mo.get("card").getAsString())) throw new BadRequest("unknown card " + mo.get("card").getAsString());
            moves.add(mo);
        }
        int toStack = 0;
        for (JsonObject mo : moves) if (str(mo, "to", "").equals("stack")) toStack++;
        if (toStack > 1) {
            // Forge puts cards on the stack one at a time; it has no event of several
            // cards put there together (CR 405.3 orders those), so the adapter does not fake one.
            throw new Unsupported("several cards put onto the stack in one event");
        }
        // Arrivals in an ordered zone: the first listed (or first in order:) ends on top,
        // so Forge is asked to put them there from the last to the first.
        Map<String, Integer> rank = new HashMap<>();
        if (o.has("order") && o.get("order").isJsonObject()) {
            for (Map.Entry<String, JsonElement> e : o.getAsJsonObject("order").entrySet()) {
                int i = 0;
                for (JsonElement h : e.getValue().getAsJsonArray()) rank.put(h.getAsString(), i++);
            }
        }
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < moves.size(); i++) idx.add(i);
        idx.sort((a, b) -> {
            int ra = rank.getOrDefault(moves.get(a).get("card").getAsString(), 1000 + a);
            int rb = rank.getOrDefault(moves.get(b).get("card").getAsString(), 1000 + b);
            // Put on top one by one, the last put is on top: the first is put last.
            // Put on the bottom one by one, the first put is highest: it is put first.
            if (isBottom(moves.get(a))) ra = -ra;
            if (isBottom(moves.get(b))) rb = -rb;
            return Integer.compare(rb, ra);
        });
        Map<Integer, Result> results = new HashMap<>();
        for (int i : idx) {
            JsonObject mo = moves.get(i).deepCopy();
            Result r = move(mo, null);
            results.put(i, r);
        }
        Result all = null;
        List<String[]> evs = new ArrayList<>();
        for (int i = 0; i < moves.size(); i++) {
            Result r = results.get(i);
            String h = moves.get(i).get("card").getAsString();
            evs.add(new String[]{h, r.outcome});
            if (all == null) all = new Result(r.outcome, r.error);
            if (Arrays.asList("moved", "redirected", "replaced").contains(r.outcome) && !all.outcome.equals("moved")) {
                all = new Result("moved");
            }
        }
        if (all == null) all = new Result("no_move");
        all.error = null; // a step on several objects has their outcomes in its events only
        all.events = evs;
        return all;
    }

    static boolean isBottom(JsonObject mo) {
        JsonElement p = mo.get("position");
        return p != null && p.isJsonPrimitive() && p.getAsJsonPrimitive().isString() && p.getAsString().equals("bottom");
    }

    static Result create(JsonObject o) {
        String kind = str(o, "kind", "token");
        if (!kind.equals("token")) throw new Unsupported("create of kind " + kind);
        if (o.has("copy_of")) throw new Unsupported("create with copy_of (feature copies)");
        String as = str(o, "as", null);
        if (as == null || objs.containsKey(as)) throw new BadRequest("create needs a new handle as");
        Player owner = byName.get(str(o, "owner", ""));
        if (owner == null) throw new BadRequest("create: unknown owner");
        String[] z = splitZone(str(o, "zone", ""), nameOf(owner), new ArrayList<>(byName.keySet()));
        if (!z[1].equals("battlefield")) throw new Unsupported("a token created outside the battlefield");
        Player ctl = o.has("controller") ? byName.get(str(o, "controller", "")) : owner;
        if (ctl == null) throw new BadRequest("create: unknown controller");
        List<String> types = new ArrayList<>(), subs = new ArrayList<>();
        if (o.has("types")) for (JsonElement e : o.getAsJsonArray("types")) types.add(e.getAsString());
        if (o.has("subtypes")) for (JsonElement e : o.getAsJsonArray("subtypes")) subs.add(e.getAsString());
        Card t = buildCard(as, owner, types, subs, true);
        if (str(o, "face", "up").equals("down")) t.turnFaceDown(true); // as Forge's manifest does before the move
        t.setController(ctl, game.getNextTimestamp());
        t.setTimestamp(game.getNextTimestamp());
        Map<AbilityKey, Object> params = AbilityKey.newMap();
        params.put(AbilityKey.LastStateBattlefield, game.getLastStateBattlefield());
        params.put(AbilityKey.LastStateGraveyard, game.getLastStateGraveyard());
        // As Forge's token effects do: put onto the battlefield from no zone.
        game.getAction().moveToPlay(t, ctl, null, params);
        Obj x = new Obj(as);
        x.id = t.getId();
        x.last = t;
        x.lastTs = t.getTimestamp();
        x.token = ++nextToken;
        objs.put(as, x);
        refresh();
        if (locate(x.id) == null) {
            objs.remove(as);
            return new Result("failed", "cannot_hold");
        }
        Result r = new Result("moved");
        r.events.add(new String[]{as, "moved"});
        return r;
    }

    static Result control(JsonObject o, Obj target) {
        if (o.has("until")) throw new Unsupported("control until (feature durations)");
        boolean[] nf = {false};
        Obj x = object(o, target, nf);
        Player p = byName.get(str(o, "player", ""));
        if (p == null) throw new BadRequest("control: unknown player");
        Where w = nf[0] ? null : locate(x.id);
        if (w == null) return new Result("not_found", "not_found");
        if (!w.zone.is(ZoneType.Battlefield) && !w.zone.is(ZoneType.Stack)) return new Result("rejected", "no_controller");
        if (w.card.isPhasedOut()) return new Result("failed", "phased_out");
        // As Forge's GainControl effect: a controller with a timestamp, then the zone correction.
        w.card.addTempController(p, game.getNextTimestamp());
        game.getAction().controllerChangeZoneCorrection(w.card);
        game.getAction().checkStaticAbilities();
        refresh();
        return new Result("no_move");
    }

    static Result phase(JsonObject o, Obj target) {
        if (o.has("with")) throw new Unsupported("phase with (feature phasing_together)");
        boolean[] nf = {false};
        Obj x = object(o, target, nf);
        boolean outward = !o.has("out") || o.get("out").getAsBoolean();
        Where w = nf[0] ? null : locate(x.id);
        if (w == null) return new Result("not_found", "not_found");
        if (!w.zone.is(ZoneType.Battlefield)) return new Result("rejected", "unsupported");
        if (w.card.isPhasedOut() == outward) return new Result("failed", "already");
        if (!outward && !w.card.isDirectlyPhasedOut()) return new Result("failed", "phased_out");
        w.card.phase(false);
        refresh();
        return new Result("no_move");
    }

    static Result draw(JsonObject o) {
        if (o.has("then")) throw new Unsupported("draw with then");
        Player p = byName.get(str(o, "player", ""));
        if (p == null) throw new BadRequest("draw: unknown player");
        int n = o.has("count") ? o.get("count").getAsInt() : 1;
        CardCollectionView drawn = p.drawCards(n);
        refresh();
        Result r = new Result(drawn.isEmpty() ? "no_move" : "moved");
        for (Card c : drawn) {
            for (Obj x : objs.values()) if (x.id == c.getId()) r.events.add(new String[]{x.handle, "moved"});
        }
        return r;
    }

    static Result mill(JsonObject o) {
        Player p = byName.get(str(o, "player", ""));
        if (p == null) throw new BadRequest("mill: unknown player");
        int n = o.has("count") ? o.get("count").getAsInt() : 1;
        String to = str(o, "to", "graveyard");
        String[] d = splitZone(to, nameOf(p), new ArrayList<>(byName.keySet()));
        if (p.getZone(ZoneType.Library).size() == 0) return new Result("failed", "empty");
        CardZoneTable table = new CardZoneTable();
        CardCollectionView milled = p.mill(n, ZONES.get(d[1]), false, null, table, AbilityKey.newMap());
        table.triggerChangesZoneAll(game, null);
        refresh();
        Result r = null;
        List<String[]> evs = new ArrayList<>();
        for (Card c : milled) {
            for (Obj x : objs.values()) {
                if (x.id != c.getId()) continue;
                String oc = !x.exists ? "ceased" : "moved";
                evs.add(new String[]{x.handle, oc});
                if (r == null || (oc.equals("moved") && !r.outcome.equals("moved"))) r = new Result(oc);
            }
        }
        if (r == null) r = new Result(milled.isEmpty() ? "failed" : "moved", milled.isEmpty() ? "empty" : null);
        r.events = evs;
        return r;
    }

    static void shuffleZone(Zone z, JsonElement order, long seed) {
        List<Card> cards = com.google.common.collect.Lists.newArrayList(z.getCards(false));
        List<Card> res;
        if (order != null && order.isJsonArray()) {
            res = new ArrayList<>();
            for (JsonElement h : order.getAsJsonArray()) {
                Obj x = objs.get(h.getAsString());
                if (x == null) throw new BadRequest("unknown card " + h.getAsString());
                Card found = null;
                for (Card c : cards) if (c.getId() == x.id) found = c;
                if (found == null || res.contains(found)) return;
                res.add(found);
            }
            if (res.size() != cards.size()) return;
            if (!z.is(ZoneType.Library)) Collections.reverse(res);
        } else {
            res = new ArrayList<>(cards);
            Collections.shuffle(res, new Random(seed));
        }
        z.setCards(res);
    }

    static Result shuffle(JsonObject o) {
        String zone = str(o, "zone", null);
        if (zone == null) throw new BadRequest("shuffle needs zone");
        List<String> names = new ArrayList<>(byName.keySet());
        String[] d = splitZone(zone, names.get(0), names);
        // The Forge zones making up the zone named: a player's own, the stack, or
        // each player's part of a shared zone Forge keeps per player.
        List<Zone> parts = new ArrayList<>();
        if (PER_PLAYER.contains(d[1])) parts.add(byName.get(d[0]).getZone(ZONES.get(d[1])));
        else if (d[1].equals("stack")) parts.add(game.getStackZone());
        else if (d[1].equals("outside")) throw new BadRequest("outside the game is not a zone");
        else for (Player p : players) parts.add(p.getZone(ZONES.get(d[1])));
        long seed = o.has("seed") ? o.get("seed").getAsLong() : 0;
        if (o.has("order")) {
            java.util.Set<Integer> have = new java.util.HashSet<>();
            int n = 0;
            for (Zone z : parts) for (Card c : z.getCards(false)) { have.add(c.getId()); n++; }
            JsonArray ord = o.getAsJsonArray("order");
            java.util.Set<Integer> ids = new java.util.HashSet<>();
            for (JsonElement h : ord) {
                Obj x = objs.get(h.getAsString());
                if (x == null) throw new BadRequest("unknown card " + h.getAsString());
                ids.add(x.id);
            }
            if (!ids.equals(have) || ord.size() != n) return new Result("failed", "not_in_zone");
            if (parts.size() == 1) shuffleZone(parts.get(0), ord, 0);
            // (a shared zone Forge splits per player is unordered: no order to keep)
        } else {
            for (Zone z : parts) shuffleZone(z, null, seed);
        }
        refresh();
        return new Result("no_move");
    }

    static Result stateCheck() {
        Map<String, String[]> b = new LinkedHashMap<>();
        for (Obj x : objs.values()) {
            Where w = x.exists ? locate(x.id) : null;
            b.put(x.handle, new String[]{w == null ? "" : w.name, String.valueOf(x.token), String.valueOf(x.exists)});
        }
        game.getAction().checkStateEffects(true);
        refresh();
        boolean ceased = false, moved = false;
        Result r = new Result("no_move");
        for (Obj x : objs.values()) {
            String[] was = b.get(x.handle);
            if (was[2].equals("true") && !x.exists) {
                ceased = true;
                r.events.add(new String[]{x.handle, "ceased"});
            } else if (x.exists) {
                Where w = locate(x.id);
                if (!w.name.equals(was[0]) || !String.valueOf(x.token).equals(was[1])) {
                    moved = true;
                    r.events.add(new String[]{x.handle, "moved"});
                }
            }
        }
        r.outcome = ceased ? "ceased" : moved ? "moved" : "no_move";
        return r;
    }

    static Result remember(JsonObject o, Obj target) {
        String as = str(o, "as", null);
        if (as == null || refs.containsKey(as)) throw new BadRequest("remember needs a new name as");
        boolean[] nf = {false};
        Obj x = object(o, target, nf);
        if (nf[0]) {
            refs.put(as, new Ref(x.handle, -1));
            return new Result("not_found", "not_found");
        }
        refs.put(as, new Ref(x.handle, x.token));
        return new Result("no_move");
    }

    /** Turns a card face up or down where it is, with Card.turnFaceDown / turnFaceUp. */
    static Result turnFace(JsonObject o, Obj target) {
        String face = str(o, "face", null);
        if (face == null || !(face.equals("up") || face.equals("down"))) throw new BadRequest("turn_face needs face: up or down");
        boolean[] nf = {false};
        Obj x = object(o, target, nf);
        Where w = nf[0] ? null : locate(x.id);
        if (w == null) return new Result("not_found", "not_found");
        if (w.card.isPhasedOut()) return new Result("failed", "phased_out");
        if (!FACE_DOWN_ZONES.contains(w.type))
            throw new Unsupported("turning a card in the " + w.type + " (Forge has face-down cards on the battlefield, the stack, in exile and the command zone)");
        boolean down = face.equals("down");
        if (w.card.isFaceDown() == down) return new Result("failed", "already");
        int before = x.token;
        if (down) w.card.turnFaceDown(true);
        else w.card.turnFaceUp(null);
        refresh();
        if (w.card.isFaceDown() != down) return new Result("failed", "already");
        if (x.token != before) {
            Result r = new Result("new_object_in_place");
            r.events.add(new String[]{x.handle, "new_object_in_place"});
            return r;
        }
        return new Result("no_move");
    }

    static final java.util.Set<String> markNames = new java.util.HashSet<>();

    /** A counter (mark of kind counter): a Forge counter of a type named for the mark, put with Forge's counter table. */
    static Result mark(JsonObject o, Obj target) {
        String kind = str(o, "kind", null);
        if (kind == null || !o.has("as")) throw new BadRequest("mark needs as and kind");
        if (!kind.equals("counter")) throw new Unsupported("marks of kind " + kind);
        if (o.has("until")) throw new Unsupported("mark until (feature durations)");
        String as = str(o, "as", null);
        if (markNames.contains(as)) throw new BadRequest("mark " + as + " is introduced twice");
        boolean[] nf = {false};
        Obj x = object(o, target, nf);
        markNames.add(as);
        Where w = nf[0] ? null : locate(x.id);
        if (w == null) return new Result("not_found", "not_found");
        if (w.zone.is(ZoneType.Sideboard)) return new Result("rejected", "unsupported");
        if (w.card.isPhasedOut()) return new Result("failed", "phased_out");
        forge.game.card.CounterType ct = forge.game.card.CounterType.get("ZO_" + as);
        forge.game.GameEntityCounterTable table = new forge.game.GameEntityCounterTable();
        w.card.addCounter(ct, 1, w.card.getController() != null ? w.card.getController() : w.card.getOwner(), table);
        table.replaceCounterEffect(game, null, true);
        x.counters.put(as, ct);
        refresh();
        return new Result("no_move");
    }

    // ---- run ----------------------------------------------------------------------
    static JsonObject run(JsonObject r) {
        JsonElement steps = r.get("steps");
        if (steps == null || !steps.isJsonArray()) throw new BadRequest("run needs steps (a list)");
        String mode = r.has("observe") ? r.get("observe").getAsString() : "end";
        if (!Arrays.asList("each", "delta", "end").contains(mode)) throw new BadRequest("run: observe is each, delta or end");
        if (game == null && steps.getAsJsonArray().size() > 0) throw new BadRequest("step before setup");
        JsonArray results = new JsonArray(), obs = new JsonArray();
        JsonObject prev = lastObs != null ? lastObs : (game != null ? observation() : null);
        for (JsonElement st : steps.getAsJsonArray()) {
            results.add(stepResult(step(st, null)));
            if (!mode.equals("end")) {
                JsonObject cur = observation();
                obs.add(mode.equals("delta") ? delta(prev, cur) : cur);
                prev = cur;
            }
        }
        if (mode.equals("end") && game != null) {
            prev = observation();
            obs.add(prev);
        }
        lastObs = prev;
        JsonObject o = new JsonObject();
        o.add("results", results);
        o.add("observations", obs);
        return o;
    }

    static JsonObject delta(JsonObject a, JsonObject b) {
        JsonObject d = new JsonObject();
        JsonObject ob = new JsonObject();
        JsonObject ao = a.getAsJsonObject("objects"), bo = b.getAsJsonObject("objects");
        for (Map.Entry<String, JsonElement> e : bo.entrySet()) {
            JsonObject now = e.getValue().getAsJsonObject();
            JsonElement was = ao.get(e.getKey());
            if (was == null) { ob.add(e.getKey(), now); continue; }
            JsonObject ch = new JsonObject();
            JsonObject w = was.getAsJsonObject();
            for (Map.Entry<String, JsonElement> f : now.entrySet()) {
                if (!f.getValue().equals(w.get(f.getKey()))) ch.add(f.getKey(), f.getValue());
            }
            for (Map.Entry<String, JsonElement> f : w.entrySet()) {
                if (!now.has(f.getKey())) ch.add(f.getKey(), defaultOf(f.getKey()));
            }
            if (ch.size() > 0) ob.add(e.getKey(), ch);
        }
        d.add("objects", ob);
        for (String k : new String[]{"triggers", "refs", "players", "visible"}) {
            JsonObject x = a.getAsJsonObject(k), y = b.getAsJsonObject(k);
            JsonObject ch = new JsonObject();
            for (Map.Entry<String, JsonElement> e : y.entrySet()) {
                if (!e.getValue().equals(x.get(e.getKey()))) ch.add(e.getKey(), e.getValue());
            }
            if (ch.size() > 0) d.add(k, ch);
        }
        return d;
    }

    static JsonElement defaultOf(String field) {
        switch (field) {
            case "face": return new JsonPrimitive("up");
            case "marks": return new JsonArray();
            case "phased_out": return new JsonPrimitive(false);
            default: return JsonNull.INSTANCE;
        }
    }

    // ---- observation --------------------------------------------------------------
    static JsonObject observation() {
        boolean full = protocol.equals("zcp/1");
        JsonObject objects = new JsonObject();
        JsonObject visible = new JsonObject();
        Map<String, JsonArray> vis = new LinkedHashMap<>();
        for (String n : byName.keySet()) vis.put(n, new JsonArray());
        for (Obj x : objs.values()) {
            JsonObject o = new JsonObject();
            Where w = x.exists ? locate(x.id) : null;
            if (w == null) {
                o.addProperty("exists", false);
                o.addProperty("zone", "");
                o.addProperty("object", x.token);
                o.addProperty("visibility", "private");
                o.addProperty("owner", nameOf(x.last.getOwner()));
                if (full) {
                    o.add("position", JsonNull.INSTANCE);
                    o.add("layer", JsonNull.INSTANCE);
                    o.addProperty("face", "up");
                    o.add("controller", JsonNull.INSTANCE);
                    o.add("marks", new JsonArray());
                    o.add("under", JsonNull.INSTANCE);
                    o.addProperty("phased_out", false);
                    o.add("came_from", JsonNull.INSTANCE);
                }
                objects.add(x.handle, o);
                continue;
            }
            Card c = w.card;
            boolean faceDown = c.isFaceDown();
            boolean pub = PUBLIC.containsKey(w.type) && !faceDown;
            o.addProperty("exists", true);
            o.addProperty("zone", w.name);
            o.addProperty("object", x.token);
            Integer pos = positionOf(w);
            if (pos != null || full) o.add("position", pos == null ? JsonNull.INSTANCE : new JsonPrimitive(pos));
            if (full) o.add("layer", JsonNull.INSTANCE);
            o.addProperty("visibility", pub ? "public" : "private");
            if (faceDown || full) o.addProperty("face", faceDown ? "down" : "up");
            String ctl = (w.zone.is(ZoneType.Battlefield) || w.zone.is(ZoneType.Stack)) ? nameOf(c.getController()) : null;
            if (ctl != null || full) o.add("controller", ctl == null ? JsonNull.INSTANCE : new JsonPrimitive(ctl));
            o.addProperty("owner", nameOf(c.getOwner()));
            JsonArray marks = new JsonArray();
            for (Map.Entry<String, forge.game.card.CounterType> m : x.counters.entrySet()) {
                if (c.getCounters(m.getValue()) > 0) marks.add(m.getKey());
            }
            if (marks.size() > 0 || full) o.add("marks", marks);
            if (full) o.add("under", JsonNull.INSTANCE);
            if (c.isPhasedOut() || full) o.addProperty("phased_out", c.isPhasedOut());
            if (full) o.add("came_from", JsonNull.INSTANCE);
            objects.add(x.handle, o);
            // Who may look at it: Forge's own CardView.canBeShownTo.
            for (Map.Entry<String, Player> e : byName.entrySet()) {
                forge.game.player.PlayerView pv = e.getValue().getView();
                if (c.getView().canBeShownTo(pv) && c.getView().canFaceDownBeShownTo(pv, false)) vis.get(e.getKey()).add(x.handle);
            }
        }
        for (Map.Entry<String, JsonArray> e : vis.entrySet()) visible.add(e.getKey(), e.getValue());
        JsonObject refsO = new JsonObject();
        for (Map.Entry<String, Ref> e : refs.entrySet()) {
            Obj x = objs.get(e.getValue().handle);
            boolean found = x.exists && x.token == e.getValue().token;
            JsonObject r = new JsonObject();
            r.addProperty("found", found);
            r.add("handle", found ? new JsonPrimitive(x.handle) : JsonNull.INSTANCE);
            refsO.add(e.getKey(), r);
        }
        JsonObject pl = new JsonObject();
        for (Map.Entry<String, Player> e : byName.entrySet()) {
            JsonObject p = new JsonObject();
            p.addProperty("lost", e.getValue().hasLost());
            pl.add(e.getKey(), p);
        }
        JsonObject o = new JsonObject();
        o.add("objects", objects);
        o.add("triggers", new JsonObject());
        o.add("refs", refsO);
        o.add("players", pl);
        o.add("visible", visible);
        return o;
    }
}
