// The board's clacks played by the browser (the board on a TV): the board's own sample, each
// landing of the panel's plan at its time with the gain the board's clack track gives it, at the
// board's volume, summed and soft-limited as the board's track is (linear to ±0.5, then a tanh
// knee). Silent whenever the board is (muted, quiet hours, sound off): the plan says so.

// Headroom before the limiter: up to four full-scale clacks at once keep their shape.
const headroom = 4;

function softLimit(x) {
  const knee = 0.5, magnitude = Math.abs(x);
  if (magnitude <= knee) return x;
  const limited = knee + (1 - knee) * Math.tanh((magnitude - knee) / (1 - knee));
  return x < 0 ? -limited : limited;
}

export class Clacks {
  // `fetchSample()` gives the clack as WAV bytes (an ArrayBuffer).
  constructor(fetchSample) {
    this.fetchSample = fetchSample;
    this.context = null;
    this.sample = null;
    this.pending = [];
  }

  get on() { return !!this.sample && this.context?.state === "running"; }

  // Called from a tap: browsers let a page make sound only after one.
  async start() {
    this.context ??= new AudioContext({ latencyHint: "playback" });
    await this.context.resume();
    if (!this.sample) {
      this.sample = await this.context.decodeAudioData(await this.fetchSample());
      const scale = this.context.createGain();
      scale.gain.value = 1 / headroom;
      const limiter = this.context.createWaveShaper();
      const curve = new Float32Array(8193);
      for (let i = 0; i < curve.length; i++) curve[i] = softLimit(headroom * (i / (curve.length - 1) * 2 - 1));
      limiter.curve = curve;
      scale.connect(limiter).connect(this.context.destination);
      this.mix = scale;
    }
  }

  async stop() {
    this.cancelFrom(-Infinity);
    await this.context?.suspend();
  }

  // A plan (the live stream's `plan` event): what it replaces from its start is cancelled, and
  // each landing still to come is scheduled. Nothing when the board's clacks are not heard.
  play(plan) {
    this.cancelFrom(plan.startedAt);
    if (!this.on || plan.volume == null) return;
    const now = Date.now();
    for (const module of plan.modules) {
      module.landings.forEach((landing, k) => {
        const wall = plan.startedAt + landing;
        if (wall < now) return;  // landed before the plan reached this page
        const source = this.context.createBufferSource();
        source.buffer = this.sample;
        const gain = this.context.createGain();
        gain.gain.value = (module.gains?.[k] ?? 1) * plan.volume;
        source.connect(gain).connect(this.mix);
        source.start(this.audioTime(wall));
        this.pending.push({ source, wall });
      });
    }
  }

  // Clacks scheduled at or after `wall` (ms since 1970) will not sound.
  cancelFrom(wall) {
    const now = Date.now();
    this.pending = this.pending.filter(({ source, wall: at }) => {
      if (at >= wall) { source.stop(); return false; }
      return at > now - 1000;
    });
  }

  // The audio clock's time at which a sound is heard at `wall`: from the output's own timestamp
  // (so the device's latency is allowed for), the wall clock read against the monotonic one each
  // time (a TV that runs for weeks sees them drift apart).
  audioTime(wall) {
    const context = this.context;
    const stamp = context.getOutputTimestamp?.();
    const wallOfPerformanceZero = Date.now() - performance.now();
    if (stamp && stamp.performanceTime > 0) {
      return Math.max(context.currentTime, stamp.contextTime + (wall - wallOfPerformanceZero - stamp.performanceTime) / 1000);
    }
    return Math.max(context.currentTime, context.currentTime + (wall - Date.now()) / 1000 - (context.outputLatency || context.baseLatency || 0));
  }
}
