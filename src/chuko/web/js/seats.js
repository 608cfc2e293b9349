// Names of seats as a screen shows them.

/** "You", the seat's name, or "Seat N" (numbered from 0, as the engines' messages are). */
export function seatLabel(msg, seat) {
  if (seat === null || seat === undefined) return "";
  if (msg.seat === seat) return "You";
  const info = (msg.seats || [])[seat];
  return (info && info.name) || `Seat ${seat}`;
}
