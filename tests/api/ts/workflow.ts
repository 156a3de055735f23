// An evening through a client generated from the live schema: openapi-typescript writes
// generated/api.d.ts, openapi-fetch calls with those types, and `tsc --strict` must accept
// every call below as it is (tests/api/test_typescript_client.py). The lines expecting an
// error must be refused: the types are strict, not `any`.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api";

type Deal = components["schemas"]["Deal"];
type Problem = components["schemas"]["Problem"];

export async function evening(baseUrl: string, username: string, password: string): Promise<Deal> {
  const anonymous = createClient<paths>({ baseUrl });
  const signedIn = await anonymous.POST("/api/v1/auth/token/", { body: { username, password } });
  if (!signedIn.data) throw new Error(problem(signedIn.error));
  const api = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Token ${signedIn.data.token}` },
  });

  const club = await api.POST("/api/v1/clubs/", { body: { name: "Tarot Club de Lyon" } });
  if (!club.data) throw new Error(problem(club.error));
  const ids: number[] = [];
  for (const name of ["Aurélie", "Bruno", "Chloé", "Denis"]) {
    const player = await api.POST("/api/v1/players/", { body: { club: club.data.id, name } });
    if (!player.data) throw new Error(problem(player.error));
    ids.push(player.data.id);
  }
  const game = await api.POST("/api/v1/games/", {
    body: { club: club.data.id, players: ids, variant: "fft", label: "Table 1" },
  });
  if (!game.data) throw new Error(problem(game.error));
  const chloe = ids[2] ?? 0;

  // A garde with a handful and the petit au bout: every item typed.
  const entered = await api.POST("/api/v1/games/{id}/deals/", {
    params: { path: { id: game.data.id } },
    body: {
      number: 1,
      taker: chloe,
      contract: "garde",
      points: 49,
      oudlers: 2,
      petit_au_bout: "attack",
      handfuls: [{ player: chloe, size: "simple" }],
      slam: null,
      miseres: [],
    },
  });
  if (!entered.data) throw new Error(problem(entered.error));
  const scores: Record<string, number> | null = entered.data.scores;

  // null clears a field.
  const cleared = await api.PATCH("/api/v1/deals/{id}/", {
    params: { path: { id: entered.data.id } },
    body: { version: entered.data.version, petit_au_bout: null, handfuls: null },
  });
  if (!cleared.data) throw new Error(problem(cleared.error));

  // The standings, read again with the ETag: 304 while nothing changed.
  const standings = await anonymous.GET("/api/v1/tournaments/{id}/standings/", {
    params: { path: { id: 1 }, query: { page_size: 50 } },
  });
  const etag = standings.response.headers.get("ETag") ?? "";
  await anonymous.GET("/api/v1/tournaments/{id}/standings/", {
    params: { path: { id: 1 }, header: { "If-None-Match": etag } },
  });
  const feed = await api.GET("/api/v1/deals/", {
    params: { query: { club: club.data.id, updated_since: "" } },
  });
  const cursor: string | null | undefined = feed.data?.cursor;

  await api.POST("/api/v1/games/{id}/deals/", {
    params: { path: { id: game.data.id } },
    // @ts-expect-error a handful's size is one of simple, double, triple
    body: { taker: chloe, contract: "garde", points: 49, oudlers: 2, handfuls: [{ player: chloe, size: "huge" }] },
  });
  await api.PATCH("/api/v1/deals/{id}/", {
    params: { path: { id: entered.data.id } },
    // @ts-expect-error petit au bout is attack, defense or null
    body: { version: 2, petit_au_bout: "both" },
  });
  // @ts-expect-error a club's name is text
  await api.POST("/api/v1/clubs/", { body: { name: 0 } });

  void scores;
  void cursor;
  return cleared.data;
}

function problem(error: Problem | undefined): string {
  return error ? `${error.status} ${error.code}: ${error.detail}` : "no answer";
}
