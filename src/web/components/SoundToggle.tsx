/** The mute toggle of the games' sounds (kept in localStorage by useSound). */
export function SoundToggle({ on, onToggle, className = "" }: { on: boolean; onToggle: () => void; className?: string }) {
  return (
    <button type="button" className={`sound-toggle ${className}`} aria-pressed={on} aria-label="Sound" onClick={onToggle} title={on ? "Mute the game's sounds" : "Play the game's sounds"} data-testid="sound-toggle">
      <svg viewBox="0 0 24 24" width="1.1em" height="1.1em" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
        {on ? <path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" /> : <path d="M16 9l5 6M21 9l-5 6" />}
      </svg>
      <span className="sound-toggle-label">Sound {on ? "on" : "off"}</span>
    </button>
  );
}
