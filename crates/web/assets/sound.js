// @ts-check
// A short click for each move, when the player asks for sounds.
import { input } from "./dom.js";

/** @type {AudioContext | null} */
let audio = null;

export function sound() {
  if (!input("sound").checked) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 520;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  } catch (e) {
    // No audio in this browser: moves are silent.
  }
}
