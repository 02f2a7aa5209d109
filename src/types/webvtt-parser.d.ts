// The WebVTT reference parser ships no types: what captions.ts uses of it.
declare module "webvtt-parser" {
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
  }
  export interface WebVTTError {
    message: string;
    line: number;
    col?: number;
  }
  export class WebVTTParser {
    parse(input: string, mode?: "metadata" | "chapters"): { cues: WebVTTCue[]; errors: WebVTTError[] };
  }
}
