/** The public music and movie API (API.md "Public"), typed for the screens. */
import type { HttpClient } from '@wanxiang/core';

export interface Track {
  id: number;
  title: string;
  artist: string;
  album: string | null;
  cover: string | null;
  audio: string;
  durationS: number | null;
  lyrics: string | null;
}

export interface MovieCard {
  id: number;
  title: string;
  originalTitle: string | null;
  year: number;
  director: string | null;
  genres: string[] | null;
  region: string | null;
  rating: number | null;
  poster: string | null;
}

export interface MovieDetail extends MovieCard {
  cast: string[] | null;
  synopsis: string | null;
  video: string | null;
  videoUrl: string | null;
}

export interface MoviePage {
  results: MovieCard[];
  page: { total: number; page: number; limit: number };
  years: number[];
}

export interface MovieFilters {
  genre?: string;
  year?: string;
  region?: string;
  q?: string;
  page?: number;
}

type Envelope<T> = { data: T };

export async function fetchTracks(http: HttpClient): Promise<Track[]> {
  return (await http.request<Envelope<{ results: Track[] }>>('/api/music', { kind: 'silent' })).data.results;
}

export async function fetchMovies(
  http: HttpClient,
  filters: MovieFilters,
  limit: number,
): Promise<MoviePage> {
  const query: Record<string, string | number> = { limit };
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') query[k] = v;
  return (await http.request<Envelope<MoviePage>>('/api/public/movies', { query, kind: 'silent' })).data;
}

export async function fetchMovie(http: HttpClient, id: string): Promise<MovieDetail> {
  return (
    await http.request<Envelope<MovieDetail>>(`/api/movies/${encodeURIComponent(id)}`, { kind: 'silent' })
  ).data;
}

/** 185 → 3:05 */
export function clock(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export interface LyricLine {
  at: number | null;
  text: string;
}

/** LRC (`[mm:ss.xx]text`) into timed lines; plain text into untimed lines. */
export function parseLyrics(lyrics: string | null): LyricLine[] {
  if (!lyrics) return [];
  const lines: LyricLine[] = [];
  for (const raw of lyrics.split(/\r?\n/)) {
    const stamps = [...raw.matchAll(/\[(\d{1,2}):(\d{1,2}(?:\.\d{1,3})?)\]/g)];
    const text = raw.replace(/\[[^\]]*\]/g, '').trim();
    if (stamps.length === 0) {
      if (text && !/^\[[a-z]+:/i.test(raw.trim())) lines.push({ at: null, text });
      continue;
    }
    for (const m of stamps) lines.push({ at: Number(m[1]) * 60 + Number(m[2]), text: text || '♪' });
  }
  return lines.some((l) => l.at !== null) ? lines.sort((a, b) => (a.at ?? 0) - (b.at ?? 0)) : lines;
}

/** The index of the line sung at `time`, or -1. */
export function currentLine(lines: readonly LyricLine[], time: number): number {
  let index = -1;
  lines.forEach((l, i) => {
    if (l.at !== null && l.at <= time + 0.05) index = i;
  });
  return index;
}
